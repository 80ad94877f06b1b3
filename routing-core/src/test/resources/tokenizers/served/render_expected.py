"""Renders each case's vLLM-prepared template variables with Qwen3's chat template exactly as transformers does
(ImmutableSandboxedEnvironment, trim_blocks, lstrip_blocks, loopcontrols, HF's tojson), and applies
continue_final_message as transformers 4.57 does. Writes expected.json. Run: python3 render_expected.py"""
import json, os
import jinja2
import jinja2.ext
from jinja2.sandbox import ImmutableSandboxedEnvironment

HERE = os.path.dirname(os.path.abspath(__file__))
config = json.load(open(os.path.join(HERE, '..', 'qwen3-trimmed', 'tokenizer_config.json')))

def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[jinja2.ext.loopcontrols])
env.filters['tojson'] = tojson
template = env.from_string(config['chat_template'])
special = {'eos_token': config['eos_token'], 'pad_token': config['pad_token'],
           'additional_special_tokens': config['additional_special_tokens']}
TAG = 'CONTINUE_FINAL_MESSAGE_TAG '

cases = json.load(open(os.path.join(HERE, 'cases.json')))
expected = {}
for case in cases:
    if 'prepared' not in case:
        continue
    variables = dict(special)
    variables.update(case['prepared'])
    cont = variables.pop('continue_final_message', False)
    if cont:
        variables['messages'][-1]['content'] += TAG
    rendered = template.render(**variables)
    if cont:
        at = rendered.rindex(TAG.strip())
        rendered = rendered[:at] if rendered[at:at + len(TAG)] == TAG else rendered[:at].rstrip()
    expected[case['name']] = rendered
json.dump(expected, open(os.path.join(HERE, 'expected.json'), 'w'), ensure_ascii=False, indent=1)
