"""The four prompting scenarios for comparative answers ("Argument-Based Comparative
Question Answering Evaluation Benchmark", Figure 4), written in maieutic's words with
the same content and structure requirements:

1. only the two objects, no role, no structure;
2. a helpful-assistant role and the numbered arguments to use;
3. an analyst role, a ~300-word comparison that picks the better object, concise and
   limited to the most relevant arguments, in a fixed structure (a ~100-word summary,
   a bulleted list of the main aspects of 200 words or more, the better option in one
   word) — no arguments given;
4. scenario 3 plus the arguments: keep the relevant ones, restate them, cite their
   numbers in square brackets where used, reach 15 arguments by adding one's own
   (tagged ``[generated]``), and end with the numbered list of arguments used.

An asked aspect joins the objects in every scenario ("… of A and B with respect to
ASPECT"), as the question carries it.
"""

from __future__ import annotations

from maieutic.tasks.compqa.questions import ComparativeQuestion

SCENARIOS = ("1", "2", "3", "4")
NEEDS_ARGUMENTS = ("2", "4")
NO_ARGUMENTS = "(no arguments were found for this question)"

_HELPFUL = "You are a helpful assistant."
_ANALYST = "You are an analyst."
_STRUCTURE = (
    "Structure your answer as follows:\n"
    "- a summary of about 100 words;\n"
    "- a bulleted list of the main aspects of the comparison (200 words or more);\n"
    "- the better option, in one word"
)
_ANALYST_TASK = (
    "Write a comparison of about 300 words of {pair}.\n"
    "Your task: compare the two and choose the better one.\n"
    "Requirements:\n"
    "- keep it concise;\n"
)


def _pair(question: ComparativeQuestion) -> str:
    pair = f"{question.object1} and {question.object2}"
    return f"{pair} with respect to {question.aspect}" if question.aspect else pair


def numbered(arguments: list[str]) -> str:
    """The arguments as a numbered list (or a note that there are none)."""
    if not arguments:
        return NO_ARGUMENTS
    return "\n".join(f"{i}. {a}" for i, a in enumerate(arguments, start=1))


def messages(question: ComparativeQuestion, scenario: str) -> list[dict[str, str]]:
    """The chat messages of ``scenario`` for ``question``."""
    pair = _pair(question)
    if scenario == "1":
        return [{"role": "user", "content": f"Compare {pair}."}]
    if scenario == "2":
        user = (
            f"Compare {pair}, drawing on the following arguments:\n{numbered(question.arguments)}"
        )
        return [{"role": "system", "content": _HELPFUL}, {"role": "user", "content": user}]
    if scenario == "3":
        user = (
            _ANALYST_TASK.format(pair=pair)
            + "- think only of the most relevant arguments.\n"
            + _STRUCTURE
            + "."
        )
        return [{"role": "system", "content": _ANALYST}, {"role": "user", "content": user}]
    if scenario == "4":
        user = (
            _ANALYST_TASK.format(pair=pair)
            + "- go through the list of arguments below and pick the relevant ones;\n"
            "- restate them in your own words;\n"
            "- right after using an argument, cite its number in square brackets;\n"
            "- the comparison needs 15 arguments: add your own where the list falls "
            "short, each tagged [generated].\n"
            + _STRUCTURE
            + ";\n- a numbered list of the arguments you used.\n\n"
            + f"Arguments:\n{numbered(question.arguments)}"
        )
        return [{"role": "system", "content": _ANALYST}, {"role": "user", "content": user}]
    raise ValueError(f"unknown scenario {scenario!r} (known: {', '.join(SCENARIOS)})")
