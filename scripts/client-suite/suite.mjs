// Real, unmodified clients against a running ZeroLayer router, with only the base URL and the key changed: the
// official Anthropic and OpenAI SDKs, the Vercel AI SDK (anthropic, openai chat and openai responses providers),
// LangChain JS (ChatAnthropic, ChatOpenAI with and without the Responses API) and the Claude Code CLI. Each client:
// a whole answer, a streamed answer, a full tool round trip (tool call -> tool result -> final answer) and one error.
//
// Usage: ZEROLAYER_URL=http://127.0.0.1:8080 ZEROLAYER_API_KEY=zl-... node suite.mjs [client ...]
//        (RESULTS=path writes the results as JSON, TABLE=path as a Markdown table; ONLY=client,client runs some)
// Prints one line per case and a table; exits 1 when any case fails.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { generateText, streamText, tool as aiTool, stepCountIs, APICallError } from 'ai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { ChatAnthropic } from '@langchain/anthropic';
import { ChatOpenAI } from '@langchain/openai';
import { HumanMessage } from '@langchain/core/messages';
import { tool as lcTool } from '@langchain/core/tools';
import { z } from 'zod';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const base = process.env.ZEROLAYER_URL ?? 'http://127.0.0.1:8080';
const key = process.env.ZEROLAYER_API_KEY;
if (!key) {
  console.error('set ZEROLAYER_API_KEY (./zerolayer up prints the generated one)');
  process.exit(2);
}
const only = (process.env.ONLY ?? process.argv.slice(2).join(',')).split(',').filter(Boolean);
const BAD_ROUTING = { 'anthropic-routing-priority': 'bogus' };
const TOOL_PROMPT = 'Use the get_weather tool for `Paris`.';
const WEATHER = { type: 'object', properties: { city: { type: 'string', description: 'the city' } }, required: ['city'] };
const WEATHER_RESULT = '18 degrees and sunny';

const results = [];

function expect(condition, message) {
  if (!condition) {
    throw new Error(message);
  }
}

async function check(client, name, body) {
  if (only.length && !only.includes(client)) {
    return;
  }
  const started = Date.now();
  try {
    const detail = await body();
    results.push({ client, case: name, ok: true, ms: Date.now() - started, detail: detail ?? null });
    console.log(`ok   ${client} / ${name}${detail ? ' ' + JSON.stringify(detail) : ''}`);
  } catch (error) {
    results.push({ client, case: name, ok: false, ms: Date.now() - started, error: String(error?.message ?? error) });
    console.log(`FAIL ${client} / ${name}: ${error?.stack ?? error}`);
  }
}

function version(name) {
  return JSON.parse(readFileSync(join(here, 'node_modules', name, 'package.json'), 'utf8')).version;
}

// ---------------------------------------------------------------------------------------------- official Anthropic SDK

const anthropic = new Anthropic({ baseURL: base, apiKey: key, maxRetries: 0, timeout: 60_000 });

await check('anthropic-sdk', 'whole answer (system, multi-turn, stop sequence)', async () => {
  const message = await anthropic.messages.create({
    model: 'claude-haiku-4-5', max_tokens: 64, system: 'You answer briefly.', temperature: 0.2,
    stop_sequences: ['\n\nHuman:'], metadata: { user_id: 'client-suite' },
    messages: [
      { role: 'user', content: 'What is the capital of France?' },
      { role: 'assistant', content: 'Paris.' },
      { role: 'user', content: [{ type: 'text', text: 'And of Italy?' }] },
    ],
  });
  expect(message.type === 'message' && message.model === 'claude-haiku-4-5', `type/model ${message.type}/${message.model}`);
  expect(message.content[0]?.type === 'text' && message.content[0].text.length > 0, 'no text block');
  expect(message.usage.input_tokens > 0 && message.usage.output_tokens > 0, 'usage missing');
  return { stop_reason: message.stop_reason, usage: message.usage };
});

await check('anthropic-sdk', 'streamed answer (finalMessage)', async () => {
  let text = '';
  const stream = anthropic.messages.stream({
    model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user', content: 'Count from one to five.' }],
  });
  stream.on('text', (delta) => { text += delta; });
  const final = await stream.finalMessage();
  expect(text.length > 0 && final.content[0]?.text === text, 'final message differs from the streamed text');
  expect(final.usage.output_tokens > 0, 'no output usage');
  return { chars: text.length, usage: final.usage };
});

await check('anthropic-sdk', 'tool round trip', async () => {
  const tools = [{ name: 'get_weather', description: 'Current weather in a city', input_schema: WEATHER }];
  const ask = { role: 'user', content: TOOL_PROMPT };
  const first = await anthropic.messages.create({ model: 'claude-haiku-4-5', max_tokens: 256, tools, messages: [ask] });
  const call = first.content.find((block) => block.type === 'tool_use');
  expect(first.stop_reason === 'tool_use' && call, `no tool call: ${first.stop_reason}`);
  expect(call.name === 'get_weather' && call.input.city === 'Paris', `tool input ${JSON.stringify(call.input)}`);
  const final = await anthropic.messages.create({
    model: 'claude-haiku-4-5', max_tokens: 64, tools, messages: [ask, { role: 'assistant', content: first.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: WEATHER_RESULT }] }],
  });
  expect(final.stop_reason !== 'tool_use' && final.content.some((b) => b.type === 'text' && b.text.length), 'no final answer');
  return { input: call.input, final_stop: final.stop_reason };
});

await check('anthropic-sdk', 'error (empty messages) is a typed 400', async () => {
  try {
    await anthropic.messages.create({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [] });
  } catch (error) {
    expect(error instanceof Anthropic.BadRequestError && error.error?.error?.type === 'invalid_request_error',
      `not a typed 400: ${error?.constructor?.name} ${JSON.stringify(error.error)}`);
    return { status: error.status };
  }
  throw new Error('empty messages were accepted');
});

await check('anthropic-sdk', 'countTokens, models.list and models.retrieve', async () => {
  const count = await anthropic.messages.countTokens({
    model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'one two three' }],
    tools: [{ name: 'get_weather', description: 'Current weather in a city', input_schema: WEATHER }],
  });
  const page = await anthropic.models.list();
  const model = await anthropic.models.retrieve(page.data[0].id);
  expect(count.input_tokens > 20, `tools not counted: ${count.input_tokens}`);
  expect(model.id === page.data[0].id && model.type === 'model', 'retrieve differs from list');
  return { input_tokens: count.input_tokens, models: page.data.length };
});

// ------------------------------------------------------------------------------------------------ official OpenAI SDK

const openai = new OpenAI({ baseURL: `${base}/v1`, apiKey: key, maxRetries: 0, timeout: 60_000 });
const weatherFunction = { type: 'function', function: { name: 'get_weather', description: 'Current weather in a city', parameters: WEATHER } };

await check('openai-sdk', 'whole answer (chat)', async () => {
  const completion = await openai.chat.completions.create({
    model: 'gpt-4o-mini', max_tokens: 64, temperature: 0.2,
    messages: [{ role: 'system', content: 'You answer briefly.' }, { role: 'user', content: 'Name a prime number.' }],
  });
  expect(completion.object === 'chat.completion' && completion.model === 'gpt-4o-mini', 'object/model');
  expect(completion.choices[0]?.message?.content?.length > 0, 'no content');
  expect(completion.usage?.prompt_tokens > 0 && completion.usage?.completion_tokens > 0, 'usage missing');
  return { finish_reason: completion.choices[0].finish_reason, usage: completion.usage };
});

await check('openai-sdk', 'streamed answer (chat, with usage)', async () => {
  const stream = await openai.chat.completions.create({
    model: 'gpt-4o-mini', max_tokens: 64, stream: true, stream_options: { include_usage: true },
    messages: [{ role: 'user', content: 'Say something short.' }],
  });
  let text = '';
  let usage = null;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta?.content ?? '';
    usage = chunk.usage ?? usage;
  }
  expect(text.length > 0 && usage?.completion_tokens > 0, 'no text or usage');
  return { chars: text.length, usage };
});

await check('openai-sdk', 'tool round trip (chat)', async () => {
  const ask = { role: 'user', content: TOOL_PROMPT };
  const first = await openai.chat.completions.create({ model: 'gpt-4o-mini', max_tokens: 256, tools: [weatherFunction], messages: [ask] });
  const message = first.choices[0].message;
  const call = message.tool_calls?.[0];
  expect(first.choices[0].finish_reason === 'tool_calls' && call, `no tool call: ${first.choices[0].finish_reason}`);
  expect(JSON.parse(call.function.arguments).city === 'Paris', `arguments ${call.function.arguments}`);
  const final = await openai.chat.completions.create({
    model: 'gpt-4o-mini', max_tokens: 64, tools: [weatherFunction],
    messages: [ask, message, { role: 'tool', tool_call_id: call.id, content: WEATHER_RESULT }],
  });
  expect(final.choices[0].finish_reason !== 'tool_calls' && final.choices[0].message.content?.length > 0, 'no final answer');
  return { arguments: call.function.arguments };
});

await check('openai-sdk', 'error (empty messages) is a typed 400', async () => {
  try {
    await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [] });
  } catch (error) {
    expect(error instanceof OpenAI.BadRequestError && typeof error.error?.message === 'string',
      `not a typed 400 in OpenAI's shape: ${error?.constructor?.name} ${JSON.stringify(error.error)}`);
    return { status: error.status };
  }
  throw new Error('empty messages were accepted');
});

await check('openai-sdk', 'responses: whole, streamed and tool round trip', async () => {
  const whole = await openai.responses.create({ model: 'gpt-4o-mini', input: 'Say hello.', max_output_tokens: 64 });
  expect(whole.object === 'response' && whole.output_text.length > 0, 'no output_text');
  const stream = openai.responses.stream({ model: 'gpt-4o-mini', input: 'Say hello again.', max_output_tokens: 64 });
  let streamed = '';
  for await (const event of stream) {
    if (event.type === 'response.output_text.delta') {
      streamed += event.delta;
    }
  }
  const final = await stream.finalResponse();
  expect(streamed.length > 0 && final.output_text === streamed, 'streamed text differs from the final response');
  const tools = [{ type: 'function', name: 'get_weather', description: 'Current weather in a city', parameters: WEATHER, strict: false }];
  const input = [{ role: 'user', content: TOOL_PROMPT }];
  const first = await openai.responses.create({ model: 'gpt-4o-mini', input, tools, max_output_tokens: 256 });
  const call = first.output.find((item) => item.type === 'function_call');
  expect(call && JSON.parse(call.arguments).city === 'Paris', `no tool call: ${JSON.stringify(first.output)}`);
  const second = await openai.responses.create({
    model: 'gpt-4o-mini', tools, max_output_tokens: 64,
    input: [...input, ...first.output, { type: 'function_call_output', call_id: call.call_id, output: WEATHER_RESULT }],
  });
  expect(second.output_text.length > 0, 'no final answer');
  return { usage: whole.usage, arguments: call.arguments };
});

await check('openai-sdk', 'responses: a conversation gone on by previous_response_id, read, its input items listed, and deleted', async () => {
  // OpenAI's own multi-turn pattern: each turn sends only what is new and names the response before it
  const tools = [{ type: 'function', name: 'get_weather', description: 'Current weather in a city', parameters: WEATHER, strict: false }];
  const first = await openai.responses.create({ model: 'gpt-4o-mini', input: TOOL_PROMPT, tools, max_output_tokens: 256 });
  const call = first.output.find((item) => item.type === 'function_call');
  expect(call && JSON.parse(call.arguments).city === 'Paris', `no tool call: ${JSON.stringify(first.output)}`);
  const second = await openai.responses.create({
    model: 'gpt-4o-mini', tools, max_output_tokens: 64, previous_response_id: first.id,
    input: [{ type: 'function_call_output', call_id: call.call_id, output: WEATHER_RESULT }],
  });
  expect(second.previous_response_id === first.id, `previous_response_id not echoed: ${second.previous_response_id}`);
  expect(second.output_text.length > 0, 'no final answer');
  // the node got the whole conversation: more input tokens than the first turn's input and output together
  expect(second.usage.input_tokens > first.usage.input_tokens,
    `second turn's input ${second.usage.input_tokens} tokens, first ${first.usage.input_tokens}: history not sent`);
  const stream = openai.responses.stream({ model: 'gpt-4o-mini', previous_response_id: second.id, input: 'And tomorrow?', max_output_tokens: 64 });
  let streamed = '';
  for await (const event of stream) {
    if (event.type === 'response.output_text.delta') {
      streamed += event.delta;
    }
  }
  const third = await stream.finalResponse();
  expect(streamed.length > 0 && third.previous_response_id === second.id, 'third turn not gone on from the second');
  expect(third.usage.input_tokens > second.usage.input_tokens,
    `third turn's input ${third.usage.input_tokens} tokens, second ${second.usage.input_tokens}: conversation not sent`);
  // a stored response is read back by its id, and deleted
  const read = await openai.responses.retrieve(second.id);
  expect(read.id === second.id && read.output_text === second.output_text, `retrieved ${JSON.stringify(read)}`);
  // its input items: every earlier turn's input and output, then its own input; paged by the SDK two at a time
  const listed = [];
  for await (const item of openai.responses.inputItems.list(third.id, { limit: 2, order: 'asc' })) {
    listed.push(item);
  }
  const expected = 1 + first.output.length + 1 + second.output.length + 1;
  expect(listed.length === expected && new Set(listed.map((item) => item.id)).size === expected,
    `${listed.length} input items listed (${new Set(listed.map((item) => item.id)).size} ids), ${expected} expected`);
  expect(listed[0].type === 'message' && listed[0].role === 'user' && listed[0].content[0].text === TOOL_PROMPT
    && listed.at(-1).content[0].text === 'And tomorrow?'
    && listed.some((item) => item.type === 'function_call_output' && item.call_id === call.call_id),
    `input items: ${JSON.stringify(listed.map((item) => [item.type, item.role]))}`);
  const newest = await openai.responses.inputItems.list(third.id);
  expect(newest.data[0].id === listed.at(-1).id, 'input items not newest first by default');
  await openai.responses.delete(third.id);
  const gone = await openai.responses.retrieve(third.id).then(() => null, (error) => error);
  expect(gone instanceof OpenAI.NotFoundError, `a deleted response was still read: ${gone?.constructor?.name}`);
  try {
    await openai.responses.create({ model: 'gpt-4o-mini', previous_response_id: 'resp_unknown', input: 'Hi' });
  } catch (error) {
    expect(error instanceof OpenAI.BadRequestError && error.code === 'previous_response_not_found'
      && error.param === 'previous_response_id', `not OpenAI's 400: ${error?.constructor?.name} ${JSON.stringify(error.error)}`);
    return { input_tokens: [first.usage.input_tokens, second.usage.input_tokens, third.usage.input_tokens] };
  }
  throw new Error('an unknown previous_response_id was accepted');
});

await check('openai-sdk', 'legacy completions and models', async () => {
  const completion = await openai.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Once upon a time', max_tokens: 16 });
  expect(completion.object === 'text_completion' && completion.choices[0].text.length > 0, 'no completion text');
  const models = await openai.models.list();
  const model = await openai.models.retrieve(models.data[0].id);
  expect(model.object === 'model' && Number.isInteger(model.created) && model.owned_by, `model ${JSON.stringify(model)}`);
  return { models: models.data.length, completion_tokens: completion.usage?.completion_tokens };
});

// ------------------------------------------------------------------ a stream cut mid-answer, through both official SDKs
// With SIMULATOR_URL and ZEROLAYER_ADMIN_TOKEN (the stack's simulator and admin token; ./zerolayer up prints both):
// the opus node the router ranks first for the case's first prompt cuts every stream mid-answer (the router asks nodes
// to stream even for a client that wants the answer whole); each client stream, and each whole answer asked meanwhile,
// is complete, well-formed and, when opus served it, equal to the uninterrupted one (every simulated node of a model
// answers a prompt alike); some of those streams began on the cutting node. Without them the case is skipped
// (FullStackIT sets them).

const simulator = process.env.SIMULATOR_URL;
const adminToken = process.env.ZEROLAYER_ADMIN_TOKEN;
const OPUS_NODES = ['opus-a100-80g-0', 'opus-a100-80g-1'];
const CUT_PROMPTS = 6;

async function simulatorFault(node, method, body) {
  const response = await fetch(`${simulator}/admin/nodes/${node}/faults`, {
    method, headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(response.ok, `simulator ${method}: ${response.status} ${await response.text()}`);
}

/** Waits (polling the router's explain) until every opus node is an eligible candidate again. */
async function opusEligible(limitMs) {
  const until = Date.now() + limitMs;
  let last = 'no answer';
  while (Date.now() < until) {
    const response = await fetch(`${base}/v1/route/explain`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-routing-priority': 'opus' },
      body: JSON.stringify({ model: 'claude-opus-4-1', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
    if (response.ok) {
      const candidates = (await response.json()).candidates ?? [];
      const opus = OPUS_NODES.map((node) => candidates.find((c) => c.node === node));
      if (opus.every((c) => c?.eligible)) {
        return;
      }
      last = JSON.stringify(opus.map((c) => c?.excluded_because ?? 'absent'));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the opus nodes did not become eligible again: ${last}`);
}

/** The opus node the router ranks first for {@code prompt} now: the node a stream of it would begin on. */
async function rankedFirst(prompt) {
  const response = await fetch(`${base}/v1/route/explain`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-routing-priority': 'opus' },
    body: JSON.stringify({ model: 'claude-opus-4-1', max_tokens: 48, messages: [{ role: 'user', content: prompt }] }),
  });
  expect(response.ok, `explain: ${response.status}`);
  const first = (await response.json()).ranked?.[0];
  expect(OPUS_NODES.includes(first), `explain ranks ${first} first, not an opus node`);
  return first;
}

/**
 * Streams each prompt with {@code cutNode} cutting; then, the fault cleared, asks each whole: the answers must match.
 * The cutting node is the one the router ranks first for the first prompt once both are eligible, so the first stream
 * begins on it whatever an earlier case left behind (the picker is deterministic: a fixed node could stay second).
 */
async function cutStreams(client, streamOne, wholeOne) {
  if (!simulator || !adminToken) {
    return { skipped: 'SIMULATOR_URL / ZEROLAYER_ADMIN_TOKEN not set' };
  }
  const now = Date.now();
  const prompts = Array.from({ length: CUT_PROMPTS }, (_, i) => `Cut ${client} ${now} ${i}: explain breakers.`);
  const wholePrompts = Array.from({ length: CUT_PROMPTS }, (_, i) => `Whole ${client} ${now} ${i}: explain bulkheads.`);
  const streamed = [];
  const wholes = [];
  // an earlier case's cuts open a node's breaker and lower its health for a while: both must be candidates again
  await opusEligible(90_000);
  const cutNode = await rankedFirst(prompts[0]);
  await simulatorFault(cutNode, 'POST', { type: 'stream_cut', durationMs: 120000, intensity: 1.0 });
  try {
    for (let i = 0; i < prompts.length; i++) {
      streamed.push(await streamOne(prompts[i]));
      wholes.push(await wholeOne(wholePrompts[i]));
    }
  } finally {
    await simulatorFault(cutNode, 'DELETE');
  }
  // the references are asked of opus: the cuts may have opened the cutting node's breaker, and a cluster at half its
  // capacity is skipped, so a reference asked at once could come from the next tier's model (other text)
  await opusEligible(90_000);
  const reference = async (prompt) => {
    const answer = await wholeOne(prompt);
    expect(OPUS_NODES.includes(answer.firstNode), `the reference came from ${answer.firstNode}, not an opus node`);
    return answer;
  };
  // an answer served by another tier (the opus cluster skipped while the cutting node's breaker was open) was never cut
  // and is another model's text: it must be whole, and is not compared with opus's (a whole answer's debug names the
  // node that served it; a continuation stays on the tier)
  let elsewhere = 0;
  const same = async (what, got, prompt) => {
    if (!OPUS_NODES.includes(got.firstNode)) {
      expect(got.text.length > 0 && got.outputTokens > 0 && got.stop, `${what}: incomplete ${JSON.stringify(got)}`);
      elsewhere++;
      return;
    }
    const want = await reference(prompt);
    expect(got.text === want.text, `${what}: text differs from the uninterrupted answer:\n`
        + `${JSON.stringify(got.text)}\n${JSON.stringify(want.text)}`);
    expect(got.stop === want.stop, `${what}: stop ${got.stop} vs ${want.stop}`);
    expect(got.outputTokens === want.outputTokens, `${what}: output tokens ${got.outputTokens} vs `
        + `${want.outputTokens}`);
  };
  let cut = 0;
  let wholeContinued = 0;
  for (let i = 0; i < prompts.length; i++) {
    const got = streamed[i];
    cut += got.firstNode === cutNode ? 1 : 0;
    await same(`streamed prompt ${i} (first node ${got.firstNode})`, got, prompts[i]);
    const whole = wholes[i];
    // a whole answer's debug lists how a break was got over: from the cutting node, always by continuing
    for (const recovery of whole.recoveries) {
      expect(recovery.from_node === cutNode && recovery.kind === 'continued',
        `whole prompt ${i}: recovery ${JSON.stringify(recovery)}`);
      wholeContinued++;
    }
    await same(`whole prompt ${i} (first node ${whole.firstNode}, recoveries ${whole.recoveries.length})`, whole,
      wholePrompts[i]);
  }
  expect(cut >= 1, `no stream began on the cutting node ${cutNode}: ${streamed.map((s) => s.firstNode)}`);
  return { cutNode, streams: prompts.length, beganOnCutNode: cut, wholes: wholes.length, wholesContinued: wholeContinued,
    answeredByAnotherTier: elsewhere };
}

await check('anthropic-sdk', 'a stream cut mid-answer still ends complete (finalMessage), and a whole answer too', async () => cutStreams(
  'anthropic-sdk',
  async (prompt) => {
    const stream = anthropic.messages.stream({
      model: 'claude-opus-4-1', max_tokens: 48, messages: [{ role: 'user', content: prompt }],
    }, { headers: { 'anthropic-routing-priority': 'opus', 'anthropic-trace': 'true' } });
    const message = await stream.finalMessage();
    expect(message.content.length === 1 && message.content[0].type === 'text', `blocks ${JSON.stringify(message.content)}`);
    return { text: message.content[0].text, stop: message.stop_reason, outputTokens: message.usage.output_tokens,
      firstNode: message.debug?.node };
  },
  async (prompt) => {
    const message = await anthropic.messages.create({
      model: 'claude-opus-4-1', max_tokens: 48, messages: [{ role: 'user', content: prompt }],
    }, { headers: { 'anthropic-routing-priority': 'opus', 'anthropic-trace': 'true' } });
    expect(message.content.length === 1 && message.content[0].type === 'text', `blocks ${JSON.stringify(message.content)}`);
    return { text: message.content[0].text, stop: message.stop_reason, outputTokens: message.usage.output_tokens,
      recoveries: message.debug?.recoveries ?? [], firstNode: message.debug?.node };
  }));

await check('openai-sdk', 'a stream cut mid-answer still ends complete (finalChatCompletion), and a whole answer too', async () => cutStreams(
  'openai-sdk',
  async (prompt) => {
    let firstNode;
    const stream = openai.chat.completions.stream({
      model: 'claude-opus-4-1', max_tokens: 48, stream_options: { include_usage: true },
      messages: [{ role: 'user', content: prompt }],
    }, { headers: { 'anthropic-routing-priority': 'opus', 'anthropic-trace': 'true' } });
    stream.on('chunk', (chunk) => { firstNode ??= chunk.debug?.node; });
    const completion = await stream.finalChatCompletion();
    return { text: completion.choices[0].message.content, stop: completion.choices[0].finish_reason,
      outputTokens: completion.usage?.completion_tokens, firstNode };
  },
  async (prompt) => {
    const completion = await openai.chat.completions.create({
      model: 'claude-opus-4-1', max_tokens: 48, messages: [{ role: 'user', content: prompt }],
    }, { headers: { 'anthropic-routing-priority': 'opus', 'anthropic-trace': 'true' } });
    return { text: completion.choices[0].message.content, stop: completion.choices[0].finish_reason,
      outputTokens: completion.usage.completion_tokens, recoveries: completion.debug?.recoveries ?? [],
      firstNode: completion.debug?.node };
  }));

// ------------------------------------------------------------------------------------------------------ Vercel AI SDK

const vercelAnthropic = createAnthropic({ baseURL: `${base}/v1`, apiKey: key });
const vercelOpenAI = createOpenAI({ baseURL: `${base}/v1`, apiKey: key });
const vercelWeather = aiTool({
  description: 'Current weather in a city',
  inputSchema: z.object({ city: z.string().describe('the city') }),
  execute: async ({ city }) => `${WEATHER_RESULT} in ${city}`,
});

for (const [client, model] of [
  ['vercel-anthropic', () => vercelAnthropic('claude-haiku-4-5')],
  ['vercel-openai-chat', () => vercelOpenAI.chat('gpt-4o-mini')],
  ['vercel-openai-responses', () => vercelOpenAI('gpt-4o-mini')],
]) {
  await check(client, 'generateText', async () => {
    const result = await generateText({ model: model(), prompt: 'Say hello briefly.', maxOutputTokens: 64, maxRetries: 0 });
    expect(result.text.length > 0 && result.usage.outputTokens > 0, 'no text or usage');
    return { finishReason: result.finishReason, usage: { input: result.usage.inputTokens, output: result.usage.outputTokens } };
  });
  await check(client, 'streamText', async () => {
    const result = streamText({ model: model(), prompt: 'Count to three.', maxOutputTokens: 64, maxRetries: 0 });
    let text = '';
    for await (const delta of result.textStream) {
      text += delta;
    }
    expect(text.length > 0 && (await result.text) === text, 'streamed text differs');
    return { chars: text.length, finishReason: await result.finishReason };
  });
  await check(client, 'tool round trip (generateText, two steps)', async () => {
    const result = await generateText({
      model: model(), tools: { get_weather: vercelWeather }, stopWhen: stepCountIs(3), maxOutputTokens: 256,
      prompt: TOOL_PROMPT, maxRetries: 0,
    });
    const calls = result.steps.flatMap((step) => step.toolCalls);
    expect(calls.length >= 1 && calls[0].input.city === 'Paris', `tool calls ${JSON.stringify(calls)}`);
    expect(result.steps.length >= 2 && result.text.length > 0, `steps ${result.steps.length}, text '${result.text}'`);
    return { steps: result.steps.length, finishReason: result.finishReason };
  });
  await check(client, 'error (invalid routing header) is an APICallError 400', async () => {
    try {
      await generateText({ model: model(), prompt: 'hi', maxRetries: 0, headers: BAD_ROUTING });
    } catch (error) {
      expect(APICallError.isInstance(error) && error.statusCode === 400, `not a 400 APICallError: ${error?.name} ${error?.statusCode}`);
      return { status: error.statusCode };
    }
    throw new Error('the invalid header was accepted');
  });
}

// ------------------------------------------------------------------------------------------------------- LangChain JS

const lcWeather = lcTool(async ({ city }) => `${WEATHER_RESULT} in ${city}`, {
  name: 'get_weather', description: 'Current weather in a city', schema: z.object({ city: z.string().describe('the city') }),
});

for (const [client, make] of [
  ['langchain-anthropic', (headers) => new ChatAnthropic({
    model: 'claude-haiku-4-5', apiKey: key, anthropicApiUrl: base, maxRetries: 0, maxTokens: 256,
    clientOptions: headers ? { defaultHeaders: headers } : undefined,
  })],
  ['langchain-openai', (headers) => new ChatOpenAI({
    model: 'gpt-4o-mini', apiKey: key, maxRetries: 0, maxTokens: 256,
    configuration: { baseURL: `${base}/v1`, defaultHeaders: headers },
  })],
  ['langchain-openai-responses', (headers) => new ChatOpenAI({
    model: 'gpt-4o-mini', apiKey: key, maxRetries: 0, maxTokens: 256, useResponsesApi: true,
    configuration: { baseURL: `${base}/v1`, defaultHeaders: headers },
  })],
]) {
  await check(client, 'invoke', async () => {
    const answer = await make().invoke('Say hello briefly.');
    expect(typeof answer.text === 'string' && answer.text.length > 0, 'no text');
    return { usage: answer.usage_metadata ?? null };
  });
  await check(client, 'stream', async () => {
    let text = '';
    for await (const chunk of await make().stream('Count to three.')) {
      text += chunk.text ?? '';
    }
    expect(text.length > 0, 'nothing streamed');
    return { chars: text.length };
  });
  await check(client, 'tool round trip (bindTools)', async () => {
    const model = make().bindTools([lcWeather]);
    const ask = new HumanMessage(TOOL_PROMPT);
    const first = await model.invoke([ask]);
    const call = first.tool_calls?.[0];
    expect(call && call.name === 'get_weather' && call.args.city === 'Paris', `tool calls ${JSON.stringify(first.tool_calls)}`);
    const result = await lcWeather.invoke(call);
    const final = await model.invoke([ask, first, result]);
    expect(final.text.length > 0 && !(final.tool_calls?.length), 'no final answer');
    return { args: call.args };
  });
  await check(client, 'error (invalid routing header) has status 400', async () => {
    try {
      await make(BAD_ROUTING).invoke('hi');
    } catch (error) {
      expect(error?.status === 400 || error?.lc_error_code === 'INVALID_REQUEST' || /400/.test(String(error)),
        `not a 400: ${error?.name} ${error?.status} ${error?.message}`);
      return { status: error?.status ?? 400 };
    }
    throw new Error('the invalid header was accepted');
  });
}

// ------------------------------------------------------------------------------------------------- Claude Code CLI

const claudeHome = mkdtempSync(join(tmpdir(), 'zerolayer-claude-'));
const workDir = mkdtempSync(join(tmpdir(), 'zerolayer-claude-work-'));
const notes = join(workDir, 'notes.txt');
writeFileSync(notes, 'The secret word is zebra.\n');

function claude(args, extraEnv = {}) {
  const env = {
    PATH: process.env.PATH, HOME: claudeHome, ANTHROPIC_BASE_URL: base, ANTHROPIC_API_KEY: key,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1', ...extraEnv,
  };
  return new Promise((resolve) => {
    execFile(join(here, 'node_modules', '.bin', 'claude'), args, { env, cwd: workDir, timeout: 180_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => resolve({ code: error?.code ?? 0, stdout, stderr }));
  });
}

function claudeJson(run) {
  try {
    return JSON.parse(run.stdout);
  } catch {
    throw new Error(`no JSON from claude (exit ${run.code}): ${run.stdout.slice(0, 300)} ${run.stderr.slice(0, 300)}`);
  }
}

for (const model of [null, 'sonnet', 'opus']) {
  await check('claude-code', `claude -p --output-format json (${model ?? 'default model'})`, async () => {
    const out = claudeJson(await claude(['-p', 'say hi', '--output-format', 'json', ...(model ? ['--model', model] : [])]));
    expect(out.is_error === false && out.subtype === 'success' && out.result.length > 0, `result ${JSON.stringify(out).slice(0, 300)}`);
    return { model: Object.keys(out.modelUsage ?? {})[0] ?? null, turns: out.num_turns };
  });
}

await check('claude-code', 'streamed (--output-format stream-json)', async () => {
  const run = await claude(['-p', 'say hi', '--output-format', 'stream-json', '--verbose']);
  const lines = run.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line));
  const result = lines.find((line) => line.type === 'result');
  expect(lines.some((line) => line.type === 'assistant') && result?.is_error === false, `stream ${run.stdout.slice(0, 300)}`);
  return { events: lines.length };
});

await check('claude-code', 'tool round trip (Read)', async () => {
  const out = claudeJson(await claude(['-p', `Use the Read tool to read \`${notes}\``, '--output-format', 'json']));
  expect(out.is_error === false && out.num_turns >= 2, `turns ${out.num_turns}: ${JSON.stringify(out).slice(0, 300)}`);
  return { turns: out.num_turns };
});

await check('claude-code', 'error (invalid routing header) ends as an API error', async () => {
  const run = await claude(['-p', 'hi', '--output-format', 'json'], { ANTHROPIC_CUSTOM_HEADERS: 'anthropic-routing-priority: bogus' });
  const out = claudeJson(run);
  expect(out.is_error === true && run.code !== 0, `not an error: ${JSON.stringify(out).slice(0, 300)}`);
  return { terminal_reason: out.terminal_reason ?? null, status: out.api_error_status ?? null };
});

rmSync(claudeHome, { recursive: true, force: true });
rmSync(workDir, { recursive: true, force: true });

// --------------------------------------------------------------------------------------------------------- summary

const versions = Object.fromEntries(['@anthropic-ai/sdk', 'openai', 'ai', '@ai-sdk/anthropic', '@ai-sdk/openai',
  '@langchain/anthropic', '@langchain/openai', '@langchain/core', '@anthropic-ai/claude-code'].map((name) => [name, version(name)]));
const failed = results.filter((result) => !result.ok);
console.log(JSON.stringify({ passed: results.length - failed.length, failed: failed.length, versions }));
if (process.env.RESULTS) {
  writeFileSync(process.env.RESULTS, JSON.stringify({ base, node: process.version, versions, results }, null, 2));
}
if (process.env.TABLE) {
  // the results as Markdown: one row per case, then the versions
  const rows = results.map((r) => `| ${r.client} | ${r.case} | ${r.ok ? 'pass' : 'FAIL: ' + r.error.replaceAll('|', '/').slice(0, 120)} | ${r.ms} |`);
  const table = ['| client | case | result | ms |', '|---|---|---|---|', ...rows, '',
    `Node.js ${process.version}; ${Object.entries(versions).map(([name, v]) => `\`${name}\` ${v}`).join(', ')}.`, ''].join('\n');
  writeFileSync(process.env.TABLE, table);
}
process.exit(failed.length ? 1 : 0);
