"""Deterministic Chinese news-portal pages for speed benchmarks (no real site's content).

Article pages follow the shape of the portals we crawl: a heavy head (meta, inline CSS and
scripts), a long navigation bar, breadcrumbs, headline and byline, 10-40 body paragraphs
with figures, related-news and hot lists, a comment section and a footer. Each page is
padded to a target size drawn from 30-80 KB. One page in five is GBK-encoded with a
``<meta charset=gbk>``, as older portals serve them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

_WORD_TEXT = """
    记者 今天 从 市政府 新闻发布会 上 获悉 本市 经济 运行 总体 平稳 稳中有进
    一季度 地区 生产总值 同比 增长 百分之 五点三 其中 第三产业 增加值 工业 投资
    消费 外贸 进出口 就业 物价 保持 稳定 城乡居民 人均可支配收入 交通 轨道 公交
    线路 开通 运营 市民 出行 便利 教育 学校 学生 医疗 医院 卫生 健康 服务
    社区 养老 文化 旅游 景区 游客 接待 科技 创新 企业 研发 高新技术 产业 数字经济
    人工智能 新能源 汽车 制造业 转型升级 生态 环境 空气质量 优良天数 河湖 治理
    绿色 低碳 发展 改革 开放 营商环境 政策 措施 落实 推进 加快 建设 项目 重点
    工程 完成 投资额 亿元
"""
WORDS = tuple(_WORD_TEXT.split())
SOURCES = ("新华社", "人民日报", "经济日报", "中国新闻网", "本报记者", "新京报", "每日经济新闻")
CHANNELS = ("新闻", "国内", "国际", "财经", "科技", "体育", "娱乐", "汽车", "房产", "教育", "健康")
STYLE = "".join(
    f".c{i}{{margin:{i % 7}px;padding:{i % 5}px;color:#{i * 97 % 4096:03x};"
    f"font-size:{12 + i % 6}px}}"
    for i in range(120)
)
SCRIPT = "".join(f"var cfg{i}={{id:{i},channel:'news',ad:'slot{i}',lazy:true}};" for i in range(60))


@dataclass(frozen=True, slots=True)
class Page:
    url: str
    body: bytes
    content_type: str


def sentence(rng: random.Random) -> str:
    """A clause chain ending in 。 (what makes a line body-like for the extractor)."""
    clauses = ["".join(rng.choices(WORDS, k=rng.randint(4, 9))) for _ in range(rng.randint(2, 4))]
    return "，".join(clauses) + "。"


def headline(rng: random.Random) -> str:
    return "".join(rng.choices(WORDS, k=rng.randint(5, 9)))


def link_list(rng: random.Random, base: str, count: int, css: str) -> str:
    items = "".join(
        f'<li><a href="{base}/doc/{rng.randint(10**8, 10**9)}.shtml" target="_blank">'
        f"{headline(rng)}</a></li>"
        for _ in range(count)
    )
    return f'<ul class="{css}">{items}</ul>'


def article_page(rng: random.Random, base: str, url: str, title: str) -> Page:
    """One article page of 30-80 KB; the body is what an extractor should return."""
    target = rng.randint(30_000, 80_000)
    charset = "gbk" if rng.random() < 0.2 else "utf-8"
    nav = "\n".join(f'<li><a href="{base}/{c}/">{c}</a></li>' for c in CHANNELS * 6)
    published = (
        f"2024年05月{rng.randint(10, 28)}日 {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"
    )
    head = (
        f'<!DOCTYPE html><html><head><meta charset="{charset}"><title>{title}_新闻中心</title>'
        f'<meta name="keywords" content="{title}"><meta name="description" content="{title}">'
        f"<style>{STYLE}</style><script>{SCRIPT}</script></head><body>\n"
        f'<ul class="top-nav">\n{nav}\n</ul>\n'
        f'<div class="crumb"><a href="{base}/">首页</a> &gt; '
        f'<a href="{base}/news/">新闻</a></div>\n'
        f'<div class="main"><h1 class="title">{title}</h1>\n'
        f'<div class="byline"><span>{published}</span> 来源：{rng.choice(SOURCES)}</div>\n'
        '<div class="article" id="article">\n'
    )
    middle = (
        f'\n</div>\n<p class="editor">责任编辑：{rng.choice(("王强", "李娜", "张伟"))}</p>\n'
        f'<div class="related"><h3>相关新闻</h3>{link_list(rng, base, 10, "rel")}</div></div>\n'
        f'<div class="side"><h3>热点排行</h3>{link_list(rng, base, 20, "hot")}</div>\n'
        '<div class="comments">\n'
    )
    tail = (
        '</div>\n<div class="footer">版权所有 新闻网 京ICP证000000号</div>'
        f"<script>{SCRIPT}</script></body></html>"
    )
    paragraphs: list[str] = []
    comments: list[str] = []
    size = len((head + middle + tail).encode(charset))
    while size < target * 0.8 and len(paragraphs) < 40:
        if paragraphs and rng.random() < 0.1:
            paragraphs.append(
                f'<p class="img"><img src="{base}/img/{rng.randint(1, 10**6)}.jpg"></p>'
                f'<p class="caption">{headline(rng)}（{rng.choice(SOURCES)} 摄）</p>'
            )
        sentences = "".join(sentence(rng) for _ in range(rng.randint(2, 5)))
        paragraphs.append(f"<p>　　{sentences}</p>")
        size += len(paragraphs[-1].encode(charset)) + 1
    while size < target:
        comments.append(
            f'<div class="cmt"><span class="user">网友{rng.randint(1, 99999)}</span>'
            f"<p>{headline(rng)}</p></div>\n"
        )
        size += len(comments[-1].encode(charset))
    html = head + "\n".join(paragraphs) + middle + "".join(comments) + tail
    return Page(url, html.encode(charset), f"text/html; charset={charset}")


def listing_page(base: str, url: str, links: list[tuple[str, str]], next_url: str | None) -> Page:
    """A channel page linking `links` (url, title), with a next-page link when there is one."""
    items = "".join(f'<li><a href="{href}">{title}</a></li>' for href, title in links)
    pager = f'<a class="next" href="{next_url}">下一页</a>' if next_url else ""
    nav = "".join(f'<a href="{base}/{c}/">{c}</a>' for c in CHANNELS)
    html = (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>滚动新闻</title></head><body>'
        f'<div class="nav">{nav}</div><ul class="list">{items}</ul>{pager}</body></html>'
    )
    return Page(url, html.encode(), "text/html; charset=utf-8")


def sample_articles(count: int) -> list[tuple[bytes, str]]:
    """(body, URL) of `count` article pages, the same ones on every call: the sample the
    speed and instruction benchmarks time extraction on."""
    rng = random.Random(1)
    return [
        (page.body, page.url)
        for page in (
            article_page(rng, "http://x.test", f"http://x.test/a/{n}.html", f"t{n}")
            for n in range(count)
        )
    ]


def site_pages(
    article_urls: list[str], listing_urls: list[str], base: str, seed: int = 20240510
) -> Iterator[Page]:
    """Listing pages (articles spread evenly over them, each linking the next) then articles."""
    rng = random.Random(seed)
    titles = [headline(rng) for _ in article_urls]
    per_listing = -(-len(article_urls) // len(listing_urls))
    for number, url in enumerate(listing_urls):
        chunk = slice(number * per_listing, (number + 1) * per_listing)
        links = list(zip(article_urls[chunk], titles[chunk], strict=True))
        next_url = listing_urls[number + 1] if number + 1 < len(listing_urls) else None
        yield listing_page(base, url, links, next_url)
    for url, title in zip(article_urls, titles, strict=True):
        yield article_page(rng, base, url, title)
