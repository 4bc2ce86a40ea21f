"""The paper's method, rule by rule: each rule firing on a small page, and not firing."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from newscrawl.extract import Article, Options, clean, extract

PAPER = Options(method="paper")


def sentence(length: int, stop: str = "。") -> str:
    """A Chinese line of exactly `length` characters, ending in `stop` when given."""
    return "文" * (length - len(stop)) + stop


def page(*lines: str, head: str = "<title>标题</title>") -> str:
    """A page whose body has one source line per argument."""
    return f"<html><head>{head}</head><body>\n" + "\n".join(lines) + "\n</body></html>"


def run(html: str, **overrides: object) -> Article:
    return extract(html, options=Options(method="paper", **overrides))  # type: ignore[arg-type]


def test_title_comes_from_title_element() -> None:
    article = extract(page(sentence(90)), options=PAPER)
    assert article.title == "标题"


def test_title_falls_back_to_heading_then_meta() -> None:
    with_h1 = page("<h1>头条 新闻</h1>", sentence(90), head="")
    assert extract(with_h1, options=PAPER).title == "头条 新闻"
    with_meta = page(sentence(90), head='<meta property="og:title" content="元标题">')
    assert extract(with_meta, options=PAPER).title == "元标题"


def test_preprocessing_removes_noise_tags_entities_and_head() -> None:
    html = (
        "<html><head><title>t</title><meta name=x content=y>头部文字</head><body>\n"
        "<style>p { color: red }</style><script>var s = '脚本';</script><!-- 注释 -->\n"
        f"<p>{sentence(40, '')}&nbsp;&amp;&lt;<b>{sentence(50)}</b></p>\n"
        "</body></html>"
    )
    article = extract(html, options=PAPER)
    assert article.body == f"{sentence(40, '')} &<{sentence(50)}"
    for noise in ("头部文字", "脚本", "注释", "color"):
        assert noise not in "\n".join(line.text for line in article.lines)


def test_lines_are_numbered_with_their_lengths() -> None:
    article = extract(page("短行", "", sentence(85)), options=PAPER)
    by_text = {line.text: line for line in article.lines}
    assert by_text["短行"].features["length"] == 2
    assert by_text[sentence(85)].features["length"] == 85
    assert [line.number for line in article.lines] == list(range(1, len(article.lines) + 1))


def test_group_starts_at_long_line_and_ends_at_empty_line() -> None:
    article = run(page("导航 首页 新闻", sentence(85), "短句。", "", "页脚版权。"))
    assert article.body == f"{sentence(85)}\n短句。"
    rules = {line.text: line.rule for line in article.lines}
    assert rules["导航 首页 新闻"] == "outside groups"
    assert rules["页脚版权。"] == "outside groups"


def test_no_line_reaching_l_gives_empty_body_with_reason() -> None:
    article = run(page(sentence(50), sentence(55)))
    assert article.body == ""
    assert article.reason is not None and "L=60" in article.reason


def test_l_falls_back_to_60_only_when_no_line_reaches_80() -> None:
    fallback = run(page(sentence(70)))
    assert fallback.parameters["L"] == 60
    assert fallback.body == sentence(70)
    # With an 85-character line on the page, L stays 80 and the 70-character group is not one.
    strict = run(page(sentence(70), "", sentence(85)))
    assert strict.parameters["L"] == 80
    assert strict.body == sentence(85)


def test_gap_larger_than_d_cuts_every_group_below() -> None:
    filler = ["短"] * 12
    article = run(page(sentence(85), "", *filler, "", sentence(90), "", sentence(95)))
    assert article.body == sentence(85)
    cut = [line for line in article.lines if line.rule.startswith("cut")]
    assert {line.text for line in cut} == {sentence(90), sentence(95)}
    assert "D=10" in cut[0].rule


def test_gap_within_d_keeps_every_group() -> None:
    filler = ["短"] * 5
    article = run(page(sentence(85), "", *filler, "", sentence(90)))
    assert article.body == f"{sentence(85)}\n{sentence(90)}"


def test_tail_rule_drops_lines_without_full_stop_in_last_group_only() -> None:
    first_group = [sentence(85), "没有句号的一行"]
    last_group = [sentence(90), "分享到 微博 微信"]
    article = run(page(*first_group, "", *last_group))
    assert article.body.split("\n") == [sentence(85), "没有句号的一行", sentence(90)]
    dropped = [line for line in article.lines if line.rule.startswith("tail")]
    assert [line.text for line in dropped] == ["分享到 微博 微信"]


def test_group_without_full_stop_becomes_empty_result_with_reason() -> None:
    nav = " ".join(["栏目"] * 30)
    article = run(page(nav))
    assert article.body == ""
    assert article.reason is not None and "full stop" in article.reason


def test_parameters_can_be_overridden() -> None:
    lines = page(sentence(30), "", "短", "短", "短", "", sentence(35))
    assert run(lines).body == ""
    loose = run(lines, min_line_length=30, fallback_line_length=30, max_gap=2)
    assert loose.body == sentence(30)
    looser = run(lines, min_line_length=30, fallback_line_length=30, max_gap=6)
    assert looser.body == f"{sentence(30)}\n{sentence(35)}"


def test_ideographic_and_latin_full_stops_count_by_default() -> None:
    english = ("word " * 20).strip()
    assert run(page(english + ".")).body == english + "."
    assert run(page(english + "!")).body == ""
    assert run(page(english + "."), full_stops="。").body == ""


def test_whitespace_collapses_to_single_spaces_and_single_spaces_stay() -> None:
    assert clean.collapse_whitespace(" a\t\tb\u3000c\xa0 d  e f\x0bg ") == "a b c d e f g"
    assert clean.collapse_whitespace("a " * 1000) == ("a " * 1000).strip()


def test_title_tags_are_found_in_any_ascii_case_whatever_else_the_page_holds() -> None:
    # "\u0130".lower() is two characters: the tags are matched ASCII-case-insensitively,
    # not on a lowered copy of the page whose indices would shift
    text = "<TITLE>\u0130stanbul</TITLE><H1>x</H1>"
    assert clean.page_title(text) == "\u0130stanbul"
    assert clean.page_title("<title>\u0130</title >") == "\u0130"
    assert clean.page_title("<Titlex>no</Titlex><h1 class=a>\u0130 h1</H1>") == "\u0130 h1"
    assert clean.page_title('<META property="og:title" content="og">') == "og"


def test_line_table_is_built_on_demand_and_equals_the_full_table() -> None:
    article = run(page("导航 首页 新闻", sentence(85), "短句。", "", "页脚版权。"))
    table = article.lines
    assert table == tuple(table)  # indexing, iterating and comparing agree
    assert [line.text for line in table if line.kept] == [sentence(85), "短句。"]
    groups = {line.text: line.group for line in table}
    assert groups[sentence(85)] == 1 and groups["导航 首页 新闻"] is None


@given(
    st.lists(
        st.sampled_from(["", "短句。", "没有句号", sentence(85), sentence(85, ""), sentence(70)]),
        max_size=40,
    ),
    st.integers(0, 6),
)
def test_kept_lines_are_the_full_tables_kept_lines(lines: list[str], max_gap: int) -> None:
    """The kept lines are decided from the candidate lines only (in the last group, those
    with a full stop): exactly the lines the full table keeps."""
    article = run(page(*lines), max_gap=max_gap)
    kept = [line.text for line in article.lines if line.kept]
    assert article.body == "\n".join(kept)
