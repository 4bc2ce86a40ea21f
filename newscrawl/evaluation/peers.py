"""The peer extractors we compare against, one small adapter each.

Every adapter is a factory that imports its library and returns
``extract(html: str, url: str | None) -> body text``. The import happens inside the
factory, so a peer that is not installed raises ImportError when it is loaded and is
reported and skipped rather than breaking the run. Peers get text decoded once by
`newscrawl.extract.decode_html`: their own byte sniffing is not what is being compared.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType

import lxml.html
from lxml.html import defs

from newscrawl.evaluation.scoring import cjk_share, tokenize

PeerExtract = Callable[[str, str | None], str]
PeerFactory = Callable[[], PeerExtract]

CJK_PAGE_SHARE = 0.5
"""A page whose visible text is at least this share CJK tokens gets a peer's Chinese setup."""

_INVISIBLE_RE = re.compile(r"<(script|style)\b.*?</\1\s*>|<!--.*?-->", re.IGNORECASE | re.DOTALL)
_TAG_RE = re.compile(r"<[^>]*>")
_BLOCK_TAGS = (defs.block_tags - {"del", "ins"}) | {
    "article",
    "aside",
    "br",
    "figcaption",
    "figure",
    "footer",
    "header",
    "main",
    "nav",
    "section",
}
"""Elements that end a line of text (HTML 4's block tags plus HTML5's sectioning ones)."""


def is_chinese_page(html: str) -> bool:
    """Whether the page's text is mostly CJK: peers with language setups need telling."""
    return cjk_share(tokenize(_TAG_RE.sub(" ", _INVISIBLE_RE.sub(" ", html)))) >= CJK_PAGE_SHARE


def fragment_text(fragment: str) -> str:
    """Plain text of an HTML fragment, one line per block, for peers that return HTML.

    Without the line breaks the last word of one paragraph and the first of the next
    would fuse into one token.
    """
    if not fragment.strip():
        return ""
    root = lxml.html.fromstring(fragment)
    for element in root.iter():
        if isinstance(element.tag, str) and element.tag.lower() in _BLOCK_TAGS:
            element.tail = "\n" + (element.tail or "")
    lines = (" ".join(line.split()) for line in root.text_content().splitlines())
    return "\n".join(line for line in lines if line)


def _trafilatura(
    *, include_comments: bool = True, include_tables: bool = True, favor_precision: bool = False
) -> PeerFactory:
    """trafilatura with these settings of ``extract``; the defaults are its own."""

    def factory() -> PeerExtract:
        import trafilatura

        def extract(html: str, url: str | None) -> str:
            return (
                trafilatura.extract(
                    html,
                    url=url,
                    include_comments=include_comments,
                    include_tables=include_tables,
                    favor_precision=favor_precision,
                )
                or ""
            )

        return extract

    return factory


def _readability() -> PeerExtract:
    from readability import Document

    def extract(html: str, url: str | None) -> str:
        return fragment_text(Document(html, url=url).summary(html_partial=True))

    return extract


def _justext() -> PeerExtract:
    """jusText has no Chinese stop list; on Chinese pages it runs language-independent.

    That mode (empty stop list, stop-word thresholds 0) is the one its documentation gives
    for languages it has no list for.
    """
    import justext

    english = justext.get_stoplist("English")

    def extract(html: str, url: str | None) -> str:
        if is_chinese_page(html):
            paragraphs = justext.justext(html, frozenset(), stopwords_low=0, stopwords_high=0)
        else:
            paragraphs = justext.justext(html, english)
        return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)

    return extract


def _gne() -> PeerExtract:
    from gne import GeneralNewsExtractor

    extractor = GeneralNewsExtractor()

    def extract(html: str, url: str | None) -> str:
        return str(extractor.extract(html).get("content") or "")

    return extract


def _resiliparse() -> PeerExtract:
    from resiliparse.extract.html2text import extract_plain_text

    def extract(html: str, url: str | None) -> str:
        return str(extract_plain_text(html, main_content=True))

    return extract


def _newspaper4k() -> PeerExtract:
    import newspaper

    def extract(html: str, url: str | None) -> str:
        article = newspaper.Article(
            url or "",
            language="zh" if is_chinese_page(html) else "en",
            fetch_images=False,
        )
        article.download(input_html=html, ignore_read_more=True)
        article.parse()
        return str(article.text)

    return extract


def _goose3() -> PeerExtract:
    """goose3 needs its Chinese stop words (segmented by jieba) on Chinese pages."""
    from goose3 import Goose
    from goose3.text import StopWordsChinese

    chinese = Goose({"stopwords_class": StopWordsChinese, "enable_image_fetching": False})
    default = Goose({"enable_image_fetching": False})

    def extract(html: str, url: str | None) -> str:
        goose = chinese if is_chinese_page(html) else default
        return str(goose.extract(url=url, raw_html=html).cleaned_text or "")

    return extract


def _boilerpy3() -> PeerExtract:
    from boilerpy3 import extractors

    extractor = extractors.ArticleExtractor()

    def extract(html: str, url: str | None) -> str:
        return str(extractor.get_content(html))

    return extract


def _magic_html() -> PeerExtract:
    from magic_html import GeneralExtractor

    extractor = GeneralExtractor()

    def extract(html: str, url: str | None) -> str:
        return fragment_text(extractor.extract(html, base_url=url or "").get("html") or "")

    return extract


PEERS: Mapping[str, PeerFactory] = MappingProxyType(
    {
        # the settings of trafilatura's own benchmark
        "trafilatura": _trafilatura(include_comments=False, include_tables=True),
        "trafilatura-precision": _trafilatura(include_comments=False, favor_precision=True),
        # as a user calls it, comments kept (docs/scoring.md's "defaults" and
        # "favor_precision" rows on the open-web sets)
        "trafilatura-defaults": _trafilatura(),
        "trafilatura-defaults-precision": _trafilatura(favor_precision=True),
        "readability-lxml": _readability,
        "justext": _justext,
        "gne": _gne,
        "resiliparse": _resiliparse,
        "newspaper4k": _newspaper4k,
        "goose3": _goose3,
        "boilerpy3": _boilerpy3,
        "magic-html": _magic_html,
    }
)
"""Peer name -> factory. Read-only: a run picks from it by name."""


def load_peers(
    names: Iterable[str], registry: Mapping[str, PeerFactory] = PEERS
) -> tuple[dict[str, PeerExtract], dict[str, str]]:
    """Build the named peers: (name -> extract) for those that import, (name -> why) else."""
    loaded: dict[str, PeerExtract] = {}
    missing: dict[str, str] = {}
    for name in names:
        try:
            loaded[name] = registry[name]()
        except ImportError as error:
            missing[name] = str(error)
    return loaded, missing
