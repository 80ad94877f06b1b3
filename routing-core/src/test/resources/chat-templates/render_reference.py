#!/usr/bin/env python3
"""Renders every *.jinja template here with every case of cases.json exactly as Hugging Face transformers does
(ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True), HF's tojson, raise_exception, strftime_now,
the `generation` tag) and writes expected.json: {template: {case: {"output": str} | {"error": str}}}.

strftime_now uses each case's fixed "now" (ISO local date-time) so the output is deterministic.
Run from any directory: python3 render_reference.py   (needs Jinja2 3.1.x)
"""
import json
import os
from datetime import datetime

import jinja2
from jinja2 import nodes
from jinja2.exceptions import TemplateError
from jinja2.ext import Extension
from jinja2.sandbox import ImmutableSandboxedEnvironment

HERE = os.path.dirname(os.path.abspath(__file__))
SNIPPET_NOW = "2024-07-26T09:05:03"


class AssistantTracker(Extension):
    """HF's {% generation %} tag; renders its body unchanged."""
    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return nodes.CallBlock(self.call_method("_generation_support"), [], [], body).set_lineno(lineno)

    @jinja2.pass_eval_context
    def _generation_support(self, context, caller):
        return caller()


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    # transformers' override of Jinja's tojson (no HTML escaping, json.dumps options exposed)
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def raise_exception(message):
    raise TemplateError(message)


def environment(now):
    # transformers also enables jinja2.ext.loopcontrols; the Java renderer refuses break/continue instead,
    # and no template here uses them.
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                        extensions=[AssistantTracker, jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = lambda fmt: now.strftime(fmt)
    return env


def main():
    with open(os.path.join(HERE, "cases.json"), encoding="utf-8") as f:
        cases = json.load(f)
    expected = {}
    for name in sorted(os.listdir(HERE)):
        if not name.endswith(".jinja"):
            continue
        with open(os.path.join(HERE, name), encoding="utf-8", newline="") as f:
            source = f.read()
        results = {}
        for case in cases:
            only = case.get("templates")
            if only is not None and name not in only:
                continue
            env = environment(datetime.fromisoformat(case["now"]))
            try:
                results[case["name"]] = {"output": env.from_string(source).render(**case["context"])}
            except Exception as e:  # noqa: BLE001 - any Python failure must be a Java TemplateException
                results[case["name"]] = {"error": f"{type(e).__name__}: {e}"}
        expected[name] = results
    with open(os.path.join(HERE, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(expected, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")

    # small snippets (snippets.json: a list of template sources) rendered with one fixed context
    with open(os.path.join(HERE, "snippets.json"), encoding="utf-8") as f:
        snippets = json.load(f)
    context = {"messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": "hi"},
                            {"role": "assistant", "content": "yo"}, {"role": "user", "content": "bye"}],
               "bos_token": "<s>", "eos_token": "</s>", "add_generation_prompt": True, "tools": None}
    env = environment(datetime.fromisoformat(SNIPPET_NOW))
    out = []
    for source in snippets:
        try:
            out.append({"source": source, "output": env.from_string(source).render(**context)})
        except Exception as e:  # noqa: BLE001
            out.append({"source": source, "error": f"{type(e).__name__}: {e}"})
    with open(os.path.join(HERE, "expected_snippets.json"), "w", encoding="utf-8") as f:
        json.dump({"now": SNIPPET_NOW, "context": context, "results": out}, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
