"""bin/simulate (issue 13): a tiny run prints the summary and writes a PNG; a side it does
not know is a clear error, not a traceback."""

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bin" / "simulate.py"


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT,
                          capture_output=True, text=True)


def test_a_tiny_run_prints_the_summary_and_writes_a_png(tmp_path):
    png = tmp_path / "odds.png"
    out = run("thug", "gunman", "-n", "6", "-j", "1", "--seed", "3", "-q", "--png", str(png))
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "thug vs gunman: 6 fights, ruleset numetal" in text
    assert "Outcome (95% interval):" in text and "Turns until one side falls" in text
    assert "damage per attack mean" in text
    assert all(len(line) <= 78 for line in text.splitlines())
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR" and data.endswith(b"IEND\xaeB`\x82")


def test_the_same_seed_gives_the_same_json(tmp_path):
    first = json.loads(run("garou", "str=2,dex=2,sta=2,brawl=1", "-n", "4", "-j", "1",
                           "--seed", "9", "--json", "-q").stdout)
    again = json.loads(run("garou", "str=2,dex=2,sta=2,brawl=1", "-n", "4", "-j", "1",
                           "--seed", "9", "--json", "-q").stdout)
    for timing in ("seconds", "cpu_seconds"):
        first.pop(timing), again.pop(timing)
    assert first == again and first["fights"] == 4


def test_a_sheet_file_is_a_side(tmp_path):
    sheet = tmp_path / "bruiser.json"
    sheet.write_text(json.dumps({"name": "Bruiser", "default": "attack {pc}",
                                 "sheet": {"traits": {"Strength": 4, "Dexterity": 3,
                                                      "Stamina": 3, "Brawl": 3}}}))
    out = run(str(sheet), "thug", "-n", "2", "-j", "1", "-r", "revised", "-q")
    assert out.returncode == 0, out.stderr
    assert "Bruiser vs thug: 2 fights, ruleset revised" in out.stdout


def test_unknown_side_or_ruleset_says_what_to_type():
    out = run("thugg", "gunman", "-n", "1", "-q")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "'thugg' is not an NPC template. Did you mean thug?" in out.stderr
    out = run("thug", "gunman", "-r", "nosuch", "-n", "1", "-q")
    assert out.returncode == 2 and "Known rulesets:" in out.stderr
