#!/usr/bin/env python3
"""Renders every *.jinja template here with every case of cases.json exactly as Hugging Face transformers does
(ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True), HF's tojson, raise_exception, strftime_now,
the `generation` tag) and writes expected.json: {template: {case: {"output": str} | {"error": str}}}.

strftime_now uses each case's fixed "now" (ISO local date-time) so the output is deterministic.
Run from any directory: python3 render_reference.py   (needs Jinja2 3.1.x)
"""
import json
import os
import re
import warnings
from datetime import datetime

import jinja2
from jinja2 import nodes
from jinja2.exceptions import TemplateError
from jinja2.ext import Extension
from jinja2.sandbox import ImmutableSandboxedEnvironment

HERE = os.path.dirname(os.path.abspath(__file__))
SNIPPET_NOW = "2024-07-26T09:05:03"
# the model-like templates random conversations are rendered with (the torture template is covered by cases.json)
CHAT_TEMPLATES = ["deepseek_style.jinja", "gemma_style.jinja", "llama3_style.jinja", "mistral_style.jinja",
                  "qwen3.jinja"]


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
    # transformers' environment, loop controls (break / continue) included
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                        extensions=[AssistantTracker, jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = lambda fmt: now.strftime(fmt)
    return env


def conversation_fuzz(count=150, seed=4242):
    """Deterministic random conversations: roles, <think> blocks, tool calls (dict/str arguments), tool results,
    reasoning_content, None content, unicode and template-looking text; written to cases_generated.json."""
    import random
    rnd = random.Random(seed)
    words = ["hello", "world", "é", "😀", "{{ x }}", "{%- if %}", "\n", "\n\n", "  ", "<think>", "</think>",
             "<tool_response>", "</tool_response>", "日本", "\"q\"", "'s", "\\", "\t", "1.5", "null"]

    def text():
        return "".join(rnd.choice(words) + rnd.choice(["", " "]) for _ in range(rnd.randrange(0, 6)))

    def tool_call():
        args = rnd.choice([{"city": text(), "n": rnd.randrange(5), "x": rnd.choice([0.5, 1.0, 1e-7, None, True])},
                           "{\"city\": \"" + text().replace("\\", "") + "\"}", {}])
        call = {"name": rnd.choice(["get_weather", "search", "ünïcode"]), "arguments": args}
        return {"type": "function", "function": call} if rnd.random() < 0.8 else call

    def message(role):
        m = {"role": role}
        if role == "assistant":
            c = text()
            if rnd.random() < 0.4:
                c = "<think>" + rnd.choice(["\n", ""]) + text() + rnd.choice(["\n", ""]) + "</think>" + \
                    rnd.choice(["\n\n", "\n", ""]) + c
            m["content"] = c if rnd.random() < 0.9 else None
            if rnd.random() < 0.3:
                m["tool_calls"] = [tool_call() for _ in range(rnd.randrange(1, 3))]
            if rnd.random() < 0.15:
                m["reasoning_content"] = text()
        elif role == "user" and rnd.random() < 0.1:
            m["content"] = "<tool_response>" + text() + "</tool_response>"
        else:
            m["content"] = text()
        return m

    cases = []
    for n in range(count):
        msgs = [message("system")] if rnd.random() < 0.4 else []
        for _ in range(rnd.randrange(1, 7)):
            msgs.append(message(rnd.choice(["user", "user", "assistant", "assistant", "tool"])))
        ctx = {"messages": msgs, "bos_token": "<s>", "eos_token": "</s>",
               "add_generation_prompt": rnd.random() < 0.5,
               "tools": rnd.choice([None, [{"type": "function", "function": {"name": "get_weather",
                                    "description": text(), "parameters": {"type": "object", "properties": {}}}}]])}
        if rnd.random() < 0.3:
            ctx["enable_thinking"] = rnd.random() < 0.5
        cases.append({"name": f"fuzz_conversation_{n:03d}", "now": "2024-07-26T10:11:12", "context": ctx,
                      "templates": CHAT_TEMPLATES})
    return cases


def whitespace_fuzz(count=400, seed=20240726):
    """Deterministic random templates mixing text, newlines, indentation and tags with every -/+ control."""
    import random
    rnd = random.Random(seed)
    texts = ["a", " ", "  ", "\t", "\n", "\n\n", " \n ", "x y", "\n  ", "  \n", "\t\n\t"]

    def sign(plus=True):
        return rnd.choice(["", "", "-", "+"] if plus else ["", "", "-"])

    def block(body):
        return "{%" + sign() + " " + body + " " + sign() + "%}"

    def node(depth):
        k = rnd.randrange(9 if depth < 2 else 5)
        if k <= 1:
            return rnd.choice(texts)
        if k == 2:
            return "{{" + sign(False) + " 'v' " + sign(False) + "}}"
        if k == 3:
            return "{#" + sign() + " c " + sign() + "#}"
        if k == 4:
            return block("set s = 1")
        inner = "".join(node(depth + 1) for _ in range(rnd.randrange(4)))
        if k == 5:
            return block("if true") + inner + block("endif")
        if k == 6:
            return block("if false") + rnd.choice(texts) + block("else") + inner + block("endif")
        if k == 7:
            return block("for i in [1, 2]") + inner + "{{ i }}" + block("endfor")
        raw_body = "".join(node(2) for _ in range(rnd.randrange(3)))
        return "{%" + sign() + " raw " + sign(False) + "%}" + raw_body + block("endraw")

    return ["".join(node(0) for _ in range(rnd.randrange(2, 8))) for _ in range(count)]


def expression_fuzz(count=600, seed=7):
    """Deterministic random expressions over literals, operators, filters, tests, methods and subscripts."""
    import random
    rnd = random.Random(seed)
    atoms = ["0", "1", "-2", "3", "7", "2.5", "0.1", "-0.0", "1e-7", "1e16", "true", "false", "none", "nothing",
             "''", "'a'", "'Hello World'", "' x y '", "'é😀'", "'1'", "'3.5'", "'a,b'", "[]", "[1, 2, 3]",
             "['b', 'a', 'B']", "[1, 'a']", "[[1, 2], [3]]", "{}", "{'k': 'v', 'a': 1}", "{'b': 2, 'a': none}",
             "(1, 2)", "messages", "messages[0]", "range(3)"]
    binops = ["+", "-", "*", "/", "//", "%", "**", "~", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "and", "or"]
    filters = ["length", "upper", "lower", "trim", "first", "last", "list", "string", "int", "float", "abs", "round",
               "sort", "unique | list", "reverse | list", "join", "join(', ')", "tojson", "default('d')",
               "default('d', true)", "sum", "min", "max", "dictsort", "items | list", "map('string') | list",
               "select | list", "reject | list", "wordcount", "capitalize", "title", "replace('a', 'o')",
               "indent(2)", "tojson(indent=1)", "e", "count", "int(9)", "float(9.5)", "round(1)",
               "map(attribute='role') | list", "selectattr('role') | list", "batch(2) | list"]
    tests = ["defined", "undefined", "none", "string", "number", "integer", "float", "boolean", "true", "false",
             "mapping", "iterable", "sequence", "odd", "even", "divisibleby 2", "eq 1", "lt 2", "in [1, 'a']",
             "lower", "upper", "callable"]
    methods = ["upper()", "lower()", "strip()", "split()", "split(',')", "startswith('a')", "endswith('d')",
               "title()", "capitalize()", "replace('l', 'L')", "find('o')", "count('l')", "isdigit()", "isalpha()",
               "items() | list", "keys() | list", "values() | list", "get('a')", "get('zz', 0)", "lstrip()",
               "rstrip(' y')", "rsplit(' ', 1)", "join(['p', 'q'])", "role", "content", "0", "1"]

    def expr(depth):
        k = rnd.randrange(8 if depth < 3 else 1)
        if k == 0:
            return rnd.choice(atoms)
        if k == 1:
            return "(" + expr(depth + 1) + " " + rnd.choice(binops) + " " + expr(depth + 1) + ")"
        if k == 2:
            return "(" + expr(depth + 1) + " | " + rnd.choice(filters) + ")"
        if k == 3:
            return "(" + expr(depth + 1) + " is " + rnd.choice(["", "not "]) + rnd.choice(tests) + ")"
        if k == 4:
            return "(" + expr(depth + 1) + ")." + rnd.choice(methods)
        if k == 5:
            return "(" + expr(depth + 1) + ")[" + rnd.choice(["0", "-1", "1:", ":-1", "::-1", "::2", "'a'", "5"]) + "]"
        if k == 6:
            return "(not " + expr(depth + 1) + ")"
        return "(" + expr(depth + 1) + " if " + expr(depth + 1) + " else " + expr(depth + 1) + ")"

    return ["{{ " + expr(0) + " }}" for _ in range(count)]


def scoping_fuzz(count=300, seed=99):
    """Deterministic random statement nests (set, block set, for/else with filters, if, macros, namespaces)."""
    import random
    rnd = random.Random(seed)
    names = ["a", "b", "c", "i", "loop"]

    def val():
        return rnd.choice(["1", "'x'", "a ~ 'k'", "b ~ i", "(c or 'e') ~ a", "loop.index ~ ''", "ns.v ~ a",
                           "i if i is defined else 'u'", "[a, b] | join('-')", "a is defined", "m(b)"])

    def stmt(depth):
        k = rnd.randrange(9 if depth < 3 else 4)
        if k == 0:
            return "{{ " + rnd.choice(names + ["ns.v", "loop.index0", "m(a)"]) + " }}"
        if k == 1:
            return "{% set " + rnd.choice(["a", "b", "c", "i"]) + " = " + val() + " %}"
        if k == 2:
            return "{% set ns.v = " + val() + " %}"
        if k == 3:
            return rnd.choice(["|", ",", " "])
        body = "".join(stmt(depth + 1) for _ in range(rnd.randrange(1, 4)))
        if k == 4:
            return "{% for i in " + rnd.choice(["[1, 2]", "range(3)", "'ab'", "[]", "{'p': 1, 'q': 2}"]) + \
                rnd.choice(["", " if i != 1"]) + " %}" + body + \
                rnd.choice(["", "{% else %}E" + stmt(depth + 1)]) + "{% endfor %}"
        if k == 5:
            return "{% if " + val() + " %}" + body + rnd.choice(["", "{% else %}" + stmt(depth + 1)]) + "{% endif %}"
        if k == 6:
            return "{% set " + rnd.choice(["a", "b", "c"]) + " %}" + body + "{% endset %}"
        if k == 7:
            return "{% for i in [3] %}{% for j in [4, 5] %}" + body + "{% endfor %}{% endfor %}"
        return "{% if true %}" + body + "{% endif %}"

    macro = "{% macro m(p, q=b) %}[{{ p }}{{ q }}{{ a }}{% set a = 'M' %}{{ a }}]{% endmacro %}"
    return [macro + "{% set ns = namespace(v='') %}" + "".join(stmt(0) for _ in range(rnd.randrange(2, 7)))
            + "{{ a }}{{ b }}{{ c }}{{ i }}{{ ns.v }}" for _ in range(count)]


def main():
    warnings.simplefilter("ignore", SyntaxWarning)  # Jinja2 compiles `1[0]`-like fuzz expressions to Python
    with open(os.path.join(HERE, "cases.json"), encoding="utf-8") as f:
        cases = json.load(f)
    generated = conversation_fuzz()
    with open(os.path.join(HERE, "cases_generated.json"), "w", encoding="utf-8") as f:
        json.dump(generated, f, ensure_ascii=False, indent=1)
        f.write("\n")
    cases = cases + generated
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
    fuzz = whitespace_fuzz() + expression_fuzz() + scoping_fuzz()
    context = {"messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": "hi"},
                            {"role": "assistant", "content": "yo"}, {"role": "user", "content": "bye"}],
               "bos_token": "<s>", "eos_token": "</s>", "add_generation_prompt": True, "tools": None}
    env = environment(datetime.fromisoformat(SNIPPET_NOW))
    out = []
    for source in snippets + fuzz:
        entry = {"source": source}
        if len(out) >= len(snippets):
            entry["fuzz"] = True  # generated: the Java renderer may refuse these ("unsupported"), never differ
        try:
            # object reprs carry memory addresses (the Java renderer refuses to print those): keep the file stable
            entry["output"] = re.sub(r" at 0x[0-9a-f]+", " at 0x...", env.from_string(source).render(**context))
        except Exception as e:  # noqa: BLE001
            entry["error"] = f"{type(e).__name__}: {e}"
        out.append(entry)
    with open(os.path.join(HERE, "expected_snippets.json"), "w", encoding="utf-8") as f:
        json.dump({"now": SNIPPET_NOW, "context": context, "results": out}, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
