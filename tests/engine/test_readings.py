"""No reading is silent (issue 10): every READING: note in a rules file has its line in
rules/README.md, which names the file and the key the note is about."""

import re

from wodcombat.combat.rules.yaml_file import read

from .conftest import RULES

README = (RULES / "README.md").read_text(encoding="utf-8")


def _readings():
    """(file as README names it, the key path the note stands above) for every note."""
    for path in sorted(RULES.glob("*/*.yaml")):
        doc, _ = read(path, str(path))
        by_line = {}
        for keys, line in doc.lines.items():
            if keys and not any(isinstance(k, int) for k in keys):
                if line not in by_line or len(keys) > len(by_line[line]):
                    by_line[line] = keys
        text = path.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(text, 1):
            if "READING" not in line:
                continue
            below = next((by_line[m] for m in range(n, len(text) + 1) if m in by_line), ())
            yield f"{path.parent.name}/{path.name}", below


def _said(rel: str, keys: tuple) -> bool:
    if f"`{rel}`" not in README and rel not in README:
        return False
    # a note above a section or a whole-file comment: naming the file is enough
    names = [str(k) for k in keys[1:]]
    return not names or any(re.search(rf"\b{re.escape(k)}\b", README) for k in names)


def test_every_reading_note_has_its_line_in_the_readme():
    silent = sorted({(rel, ".".join(map(str, keys))) for rel, keys in _readings()
                     if not _said(rel, keys)})
    assert not silent, f"READING notes with no line in rules/README.md: {silent}"


def test_there_are_readings_in_every_ruleset():
    folders = {rel.split("/")[0] for rel, _ in _readings()}
    assert {"core", "numetal", "revised", "everyman", "v20", "spotlight"} <= folders
