"""The README's Landmarks & Architects example runs and shows what its comments say."""
import ast
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_landmarks_example_shows_a_ranked_payment_frame():
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Companion module: Landmarks & Architects"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    ns, values = {}, {}
    for node in ast.parse(code).body:  # run it statement by statement, keeping each expression's value
        if isinstance(node, ast.Expr):
            values[ast.unparse(node.value)] = eval(compile(ast.Expression(node.value), "README", "eval"), ns)
        else:
            exec(compile(ast.Module([node], []), "README", "exec"), ns)
    frames = [v for k, v in values.items() if k.startswith("s.plan_payments(")]
    assert len(frames) == 1
    frame = frames[0]
    assert len(frame) >= 2 and list(frame["rank"]) == list(range(1, len(frame) + 1))
    s = ns["s"]
    assert s.current_player() == 1  # P2, whose payments the comment promises
    assert "village_square" in s.hand(1)
