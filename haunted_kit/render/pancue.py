"""The kit's pan cue, one script for every board drawn wider than its box: ``pan_cue.js`` beside this
module, read once. The notebooks' boards run it in :class:`haunted_kit.widgets.canvas.PanCue`, the table
server's page (``server_page.html``) inlines it; see the script's head for what it does."""

from __future__ import annotations

import re
from pathlib import Path

#: the script's text (plain JavaScript, no module syntax: ``hkPanCue``, ``hkPanShow``, ``hkPanName``)
PAN_CUE_JS = (Path(__file__).with_name("pan_cue.js")).read_text(encoding="utf-8")
#: the words of the cue, as the script writes them (tests read them here)
PAN_WORDS = re.search(r'HK_PAN_WORDS = "([^"]*)"', PAN_CUE_JS).group(1)
