// The official Anthropic and OpenAI TypeScript SDKs against a running ZeroLayer router, with only the base URL and the
// key changed. Usage: ZEROLAYER_URL=http://127.0.0.1:8080 ZEROLAYER_API_KEY=zl-... node check.mjs
// Prints one line per check and a JSON summary; exits 1 when any check fails.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';

const base = process.env.ZEROLAYER_URL ?? 'http://127.0.0.1:8080';
const key = process.env.ZEROLAYER_API_KEY;
if (!key) {
  console.error('set ZEROLAYER_API_KEY (./zerolayer up prints the generated one)');
  process.exit(2);
}

const anthropic = new Anthropic({ baseURL: base, apiKey: key, maxRetries: 0, timeout: 30_000 });
const openai = new OpenAI({ baseURL: `${base}/v1`, apiKey: key, maxRetries: 0, timeout: 30_000 });

const results = [];

function expect(condition, message) {
  if (!condition) {
    throw new Error(message);
  }
}

async function check(name, body) {
  const started = Date.now();
  try {
    const detail = await body();
    results.push({ name, ok: true, ms: Date.now() - started, ...detail });
    console.log(`ok   ${name}${detail ? ' ' + JSON.stringify(detail) : ''}`);
  } catch (error) {
    results.push({ name, ok: false, ms: Date.now() - started, error: String(error?.message ?? error) });
    console.log(`FAIL ${name}: ${error?.stack ?? error}`);
  }
}

await check('anthropic messages.create (non-streaming, system, multi-turn, stop sequence)', async () => {
  const message = await anthropic.messages.create({
    model: 'claude-haiku-4-5',
    max_tokens: 64,
    system: 'You answer briefly.',
    temperature: 0.2,
    top_p: 0.9,
    stop_sequences: ['\n\nHuman:'],
    metadata: { user_id: 'sdk-check' },
    messages: [
      { role: 'user', content: 'What is the capital of France?' },
      { role: 'assistant', content: 'Paris.' },
      { role: 'user', content: [{ type: 'text', text: 'And of Italy?' }] },
    ],
  });
  expect(message.type === 'message' && message.role === 'assistant', `unexpected type/role ${message.type}/${message.role}`);
  expect(message.model === 'claude-haiku-4-5', `model is ${message.model}, not the requested one`);
  expect(message.content[0]?.type === 'text' && message.content[0].text.length > 0, 'no text block');
  expect(message.usage.input_tokens > 0 && message.usage.output_tokens > 0, 'usage missing');
  expect(['end_turn', 'max_tokens', 'stop_sequence'].includes(message.stop_reason), `stop_reason ${message.stop_reason}`);
  return { stop_reason: message.stop_reason, usage: message.usage };
});

await check('anthropic messages.stream (text events, final message)', async () => {
  let text = '';
  const stream = anthropic.messages.stream({
    model: 'claude-sonnet-4-6',
    max_tokens: 64,
    messages: [{ role: 'user', content: 'Count from one to five.' }],
  });
  stream.on('text', (delta) => { text += delta; });
  const final = await stream.finalMessage();
  expect(text.length > 0, 'no text streamed');
  expect(final.content[0]?.type === 'text' && final.content[0].text === text, 'final message differs from streamed text');
  expect(final.model === 'claude-sonnet-4-6', `model is ${final.model}`);
  expect(final.usage.output_tokens > 0, 'no output usage');
  return { chars: text.length, usage: final.usage };
});

await check('anthropic messages.create stream:true (raw events)', async () => {
  const events = await anthropic.messages.create({
    model: 'claude-haiku-4-5',
    max_tokens: 32,
    stream: true,
    messages: [{ role: 'user', content: 'Hello' }],
  });
  const types = [];
  for await (const event of events) {
    types.push(event.type);
  }
  expect(types[0] === 'message_start' && types.at(-1) === 'message_stop', `event order ${types.join(',')}`);
  expect(types.includes('content_block_delta'), 'no delta');
  return { events: types.length };
});

await check('anthropic messages.countTokens', async () => {
  const count = await anthropic.messages.countTokens({
    model: 'claude-haiku-4-5',
    messages: [{ role: 'user', content: 'one two three' }],
  });
  expect(count.input_tokens > 0, 'no token count');
  return { input_tokens: count.input_tokens };
});

await check('anthropic models.list', async () => {
  const page = await anthropic.models.list();
  expect(page.data.length > 0 && page.data.every((m) => typeof m.id === 'string'), 'no models');
  return { models: page.data.length };
});

await check('anthropic bad request is a typed SDK error', async () => {
  try {
    await anthropic.messages.create({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [] });
  } catch (error) {
    expect(error instanceof Anthropic.BadRequestError, `not a BadRequestError: ${error?.constructor?.name}`);
    expect(error.status === 400 && error.error?.error?.type === 'invalid_request_error', `shape ${JSON.stringify(error.error)}`);
    return { status: error.status };
  }
  throw new Error('empty messages were accepted');
});

await check('openai chat.completions.create (non-streaming)', async () => {
  const completion = await openai.chat.completions.create({
    model: 'gpt-4o-mini',
    max_tokens: 64,
    temperature: 0.2,
    stop: ['\n\nUser:'],
    messages: [
      { role: 'system', content: 'You answer briefly.' },
      { role: 'user', content: 'Name a prime number.' },
    ],
  });
  expect(completion.object === 'chat.completion', `object ${completion.object}`);
  expect(completion.model === 'gpt-4o-mini', `model is ${completion.model}`);
  expect(completion.choices[0]?.message?.content?.length > 0, 'no content');
  expect(completion.usage?.prompt_tokens > 0 && completion.usage?.completion_tokens > 0, 'usage missing');
  return { finish_reason: completion.choices[0].finish_reason, usage: completion.usage };
});

await check('openai chat.completions.create stream:true with usage', async () => {
  const stream = await openai.chat.completions.create({
    model: 'gpt-4o-mini',
    max_tokens: 64,
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: 'user', content: 'Say something short.' }],
  });
  let text = '';
  let usage = null;
  let finish = null;
  for await (const chunk of stream) {
    expect(chunk.object === 'chat.completion.chunk', `object ${chunk.object}`);
    text += chunk.choices[0]?.delta?.content ?? '';
    finish = chunk.choices[0]?.finish_reason ?? finish;
    usage = chunk.usage ?? usage;
  }
  expect(text.length > 0, 'no text streamed');
  expect(finish !== null, 'no finish_reason');
  expect(usage?.completion_tokens > 0, 'no usage chunk');
  return { chars: text.length, usage };
});

await check('openai bad request is a typed SDK error', async () => {
  try {
    await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: 'not a list' });
  } catch (error) {
    expect(error instanceof OpenAI.BadRequestError, `not a BadRequestError: ${error?.constructor?.name}`);
    expect(error.status === 400 && error.error?.type === 'invalid_request_error', `shape ${JSON.stringify(error.error)}`);
    return { status: error.status };
  }
  throw new Error('a string as messages was accepted');
});

const failed = results.filter((r) => !r.ok);
console.log(JSON.stringify({ checks: results.length, failed: failed.length }));
process.exit(failed.length === 0 ? 0 : 1);
