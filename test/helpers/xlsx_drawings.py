"""Opens workbooks with openpyxl as a Python user would and prints, as JSON, per file and sheet:
the charts (their type, the kinds of charts they combine, each series' value formula) and the
images openpyxl sees, the same counts after a save with openpyxl and a reload, and the warnings
it gave (a drawing it cannot read is a warning, and its images and charts are gone).

Usage: python xlsx_drawings.py OUT_DIR FILE.xlsx...
"""
import json
import os
import sys
import warnings

from openpyxl import load_workbook


def sheets(path):
    wb = load_workbook(path)
    out = {}
    for ws in wb.worksheets:
        charts = []
        for c in ws._charts:
            charts.append({
                "type": type(c).__name__,
                "parts": [type(p).__name__ for p in getattr(c, "_charts", [c])],
                "series": [s.val.numRef.f if s.val is not None and s.val.numRef is not None else None
                           for p in getattr(c, "_charts", [c]) for s in p.series],
            })
        out[ws.title] = {"charts": charts, "images": len(ws._images)}
    return wb, out


def main():
    out_dir = sys.argv[1]
    result = {}
    for path in sys.argv[2:]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            wb, opened = sheets(path)
            saved = os.path.join(out_dir, "openpyxl-" + os.path.basename(path))
            wb.save(saved)
            _, resaved = sheets(saved)
        result[path] = {
            "sheets": opened,
            "resaved": {k: {"charts": len(v["charts"]), "images": v["images"]} for k, v in resaved.items()},
            "warnings": [str(w.message) for w in caught],
        }
    print(json.dumps(result))


main()
