"""Turn `newscrawl extract DIR` output into the gold/prediction files `score.py` reads.

    newscrawl extract --method paper ../shared/datasets/zh_cwce/original/ > paper.jsonl
    python bench/jsonl_to_score_inputs.py paper.jsonl ../shared/datasets/zh_cwce gold.json pred.json
    python ../shared/eval/score.py gold.json pred.json

Works for any dataset laid out like zh_cwce: `original/<id>.html` and gold `cleaned/<id>.txt`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("extracted", type=Path, help="JSONL written by `newscrawl extract DIR`")
    parser.add_argument("dataset", type=Path, help="folder with original/ and cleaned/")
    parser.add_argument("gold_out", type=Path)
    parser.add_argument("pred_out", type=Path)
    args = parser.parse_args()

    predicted: dict[str, str] = {}
    for line in args.extracted.read_text("utf-8").splitlines():
        record = json.loads(line)
        predicted[Path(record["path"]).name.split(".")[0]] = record.get("body", "")
    gold = {
        page_id: (args.dataset / "cleaned" / f"{page_id}.txt").read_text("utf-8", "replace")
        for page_id in predicted
    }
    args.gold_out.write_text(json.dumps(gold, ensure_ascii=False), "utf-8")
    args.pred_out.write_text(json.dumps(predicted, ensure_ascii=False), "utf-8")


if __name__ == "__main__":
    main()
