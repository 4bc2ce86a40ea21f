"""Bar charts of page-level precision and recall per site and extractor.

The paper's figures 3 and 4 compare tools this way: one group of bars per site, the
paper's precision (correct pages / pages with output) in one panel and its recall
(correct pages / all pages) in the other. A dataset without sites is one group.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from newscrawl.evaluation.report import ExtractorSummary
from newscrawl.evaluation.scoring import SUCCESS_F1

PANELS = (("paper_precision", "precision"), ("paper_recall", "recall"))
LEGEND_COLUMN_INCHES = 1.9
"""Room one legend entry takes, so the legend never runs off the figure's sides."""


def draw_chart(dataset: str, summaries: Mapping[str, ExtractorSummary], path: Path) -> None:
    """Write the PNG for one dataset's results to `path`."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display on servers and CI
    import matplotlib.pyplot as plt

    names = list(summaries)
    groups = list(next(iter(summaries.values()))["sites"]) or [dataset]

    def value(name: str, group: str, key: str) -> float:
        summary = summaries[name]
        return summary["sites"][group][key] if summary["sites"] else summary["all"][key]

    width = 0.8 / len(names)
    palette = plt.get_cmap("tab20")
    colors = [palette(index) for index in range(palette.N)]  # 20 distinct: one per extractor
    inches = max(6.0, 2.0 + 0.2 * len(groups) * len(names))
    figure, axes = plt.subplots(len(PANELS), 1, figsize=(inches, 8), layout="constrained")
    for axis, (key, label) in zip(axes, PANELS, strict=True):
        for index, name in enumerate(names):
            offset = (index - (len(names) - 1) / 2) * width
            positions = [group + offset for group in range(len(groups))]
            heights = [value(name, group, key) for group in groups]
            color = colors[index % len(colors)]
            axis.bar(positions, heights, width, label=name, color=color)
        axis.set_xticks(range(len(groups)), groups)
        axis.set_ylim(0, 1.05)
        axis.set_ylabel(f"page-level {label}")
        axis.set_title(f"{dataset}: {label} (a page is correct when its own F1 >= {SUCCESS_F1})")
    handles, labels = axes[0].get_legend_handles_labels()
    columns = max(1, min(len(names), int(inches / LEGEND_COLUMN_INCHES)))
    figure.legend(handles, labels, loc="outside lower center", ncols=columns)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100)
    plt.close(figure)
