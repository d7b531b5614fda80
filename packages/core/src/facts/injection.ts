/**
 * Signs of a prompt injection in text an agent is about to read: steering phrases, fake system or
 * tool tags, invisible characters, bidi controls, and text addressed to the AI. Only which signs
 * were seen is returned, never the text. Linear in the text.
 */

export type InjectionSign = 'steering' | 'fake-tag' | 'invisible' | 'bidi' | 'addressed-to-agent';

export interface InjectionScan {
  readonly found: boolean;
  /** Each sign once, in the order of the `InjectionSign` type. */
  readonly signs: readonly InjectionSign[];
}

const SIGN_ORDER: readonly InjectionSign[] = ['steering', 'fake-tag', 'invisible', 'bidi', 'addressed-to-agent'];

/** Scans text for injection signs; returns only which kinds were seen. */
export function scanInjection(text: string): InjectionScan {
  const seen = new Set<InjectionSign>();
  scanCharacters(text, seen);
  const lower = text.toLowerCase();
  if (hasFakeTag(lower)) seen.add('fake-tag');
  const flat = flatten(lower);
  if (STEERING.some((phrase) => saysUnquoted(phrase, flat))) seen.add('steering');
  if (ADDRESSED.some((phrase) => saysUnquoted(phrase, flat))) seen.add('addressed-to-agent');
  const signs = SIGN_ORDER.filter((s) => seen.has(s));
  return { found: signs.length > 0, signs };
}

// ---------------------------------------------------------------------------------------------
// Characters

const ZWNJ = 0x200c;
const ZWJ = 0x200d;
const BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const JOINING_LETTER = /[\p{L}\p{M}]/u;

function scanCharacters(text: string, seen: Set<InjectionSign>): void {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xad) continue;
    if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) {
      seen.add('bidi');
    } else if (c === 0x200b || (c >= 0x2060 && c <= 0x2064) || c === 0x180e) {
      seen.add('invisible');
    } else if (c === ZWNJ || c === ZWJ) {
      if (!isJoinerInPlace(text, i)) seen.add('invisible');
    } else if (c === 0xfeff) {
      // a byte order mark at the start of the text, or of a file joined onto it, is ordinary
      if (i > 0 && text[i - 1] !== '\n') seen.add('invisible');
    } else if (c === 0xdb40) {
      const end = tagRunEnd(text, i);
      if (end > i) {
        if (!isFlagTagSequence(text, i, end)) seen.add('invisible');
        i = end - 1;
      } else if (isSelectorPair(text, i)) {
        // one supplementary variation selector picks a CJK glyph; a run of them carries hidden data
        seen.add('invisible');
      }
    }
  }
}

function codePointBefore(text: string, i: number): { cp: number; at: number } | undefined {
  if (i <= 0) return undefined;
  const low = text.charCodeAt(i - 1);
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
    const high = text.charCodeAt(i - 2);
    if (high >= 0xd800 && high <= 0xdbff) return { cp: text.codePointAt(i - 2) as number, at: i - 2 };
  }
  return { cp: low, at: i - 1 };
}

// A joiner inside an emoji sequence (👨‍👩‍👧) or between letters of a script that uses joiners
// (Persian, Indic scripts) is ordinary; one between Latin letters or at a word edge is not.
function isJoinerInPlace(text: string, i: number): boolean {
  let before = codePointBefore(text, i);
  // skip emoji presentation and skin tone modifiers that sit between the emoji and the joiner
  while (before !== undefined && (before.cp === 0xfe0f || (before.cp >= 0x1f3fb && before.cp <= 0x1f3ff))) {
    before = codePointBefore(text, before.at);
  }
  const after = text.codePointAt(i + 1);
  if (before === undefined || after === undefined) return false;
  const a = String.fromCodePoint(before.cp);
  const b = String.fromCodePoint(after);
  if (text.charCodeAt(i) === ZWJ && PICTOGRAPHIC.test(a) && PICTOGRAPHIC.test(b)) return true;
  return before.cp > 0x24f && after > 0x24f && JOINING_LETTER.test(a) && JOINING_LETTER.test(b);
}

/** End of a run of tag characters (U+E0000–U+E007F) starting at `i`, or `i` when there is none. */
function tagRunEnd(text: string, i: number): number {
  let j = i;
  while (text.charCodeAt(j) === 0xdb40) {
    const low = text.charCodeAt(j + 1);
    if (!(low >= 0xdc00 && low <= 0xdc7f)) break;
    j += 2;
  }
  return j;
}

/** Two variation selectors U+E0100–U+E01EF in a row at `i`. */
function isSelectorPair(text: string, i: number): boolean {
  const selector = (at: number): boolean => {
    const low = text.charCodeAt(at + 1);
    return text.charCodeAt(at) === 0xdb40 && low >= 0xdd00 && low <= 0xddef;
  };
  return selector(i) && selector(i + 2);
}

// Subdivision flags (🏴 + tag letters + cancel tag, e.g. England) are the one ordinary use of tags.
function isFlagTagSequence(text: string, start: number, end: number): boolean {
  const before = codePointBefore(text, start);
  return before?.cp === BLACK_FLAG && end - start <= 16 && text.codePointAt(end - 2) === CANCEL_TAG;
}

// ---------------------------------------------------------------------------------------------
// Fake system and tool tags (read on the lower-cased text, layout kept)

const TAG_TOKENS =
  /<\|[a-z_]{2,24}\|>|\[\/?inst\]|<<\/?sys>>|<\/?(?:tool_call|tool_calls|tool_result|tool_results|tool_use|function_calls|function_results|system-reminder|system_prompt|system-prompt|im_start|im_end|start_of_turn|end_of_turn)>|<invoke name=/g;
const SYSTEM_TAG = /<(\/?)system>/g;
const SYSTEM_HEADINGS =
  /(?:^|\n)[ \t]{0,8}#{2,6}[ \t]{0,4}system(?:[ \t]{1,4}(?:prompt|message|instructions?))?[ \t]{0,4}:|###system\b|\b(?:begin|end|start)[ \t]{1,4}(?:of[ \t]{1,4})?(?:the[ \t]{1,4})?system[ \t]{1,4}(?:prompt|message|instructions)\b/;
const QUOTES = new Set(['"', "'", '`']);

// Text none of the tags or headings below can match without (besides `system`, looked for on its own).
const TAG_NEEDS = [
  '<|',
  '[inst]',
  '[/inst]',
  '<<sys>>',
  '<</sys>>',
  '<tool_',
  '</tool_',
  '<function_',
  '</function_',
  '<im_',
  '</im_',
  '<start_of_turn>',
  '</start_of_turn>',
  '<end_of_turn>',
  '</end_of_turn>',
  '<invoke name=',
];

function hasFakeTag(lower: string): boolean {
  if (!mayHave(lower, TAG_NEEDS) && !lower.includes('system')) return false;
  TAG_TOKENS.lastIndex = 0;
  for (let m = TAG_TOKENS.exec(lower); m !== null; m = TAG_TOKENS.exec(lower)) {
    // a token written as a string literal is code that builds prompts, not a tag aimed at the reader
    const before = lower[m.index - 1] ?? '';
    const after = lower[m.index + m[0].length] ?? '';
    if (!QUOTES.has(before) && !QUOTES.has(after)) return true;
  }
  if (SYSTEM_HEADINGS.test(lower)) return true;
  return hasSystemTag(lower);
}

// `<system>GitHub</system>` is a short XML element (Maven's issueManagement has one); a system tag
// that opens a block, or a lone closing tag, is a fake.
function hasSystemTag(lower: string): boolean {
  SYSTEM_TAG.lastIndex = 0;
  for (let m = SYSTEM_TAG.exec(lower); m !== null; m = SYSTEM_TAG.exec(lower)) {
    if (m[1] === '/') return true;
    const from = m.index + m[0].length;
    const close = lower.slice(from, from + 60).indexOf('</system>');
    const inner = close < 0 ? '' : lower.slice(from, from + close);
    if (close < 0 || inner.includes('\n')) return true;
    SYSTEM_TAG.lastIndex = from + close + '</system>'.length;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Phrases (read on the flattened text: lower case, invisible characters and `*` dropped,
// whitespace runs made one space), so line breaks and markdown emphasis do not hide them

function flatten(lower: string): string {
  return lower
    .replace(/[\u200b-\u200d\u2060-\u2064\ufeff\u00ad*]|\udb40[\udc00-\udc7f]/g, '')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, ' ');
}

const OPEN_QUOTES = new Set(['"', "'", '`', '\u201c', '\u00ab']);
const CLOSE_QUOTE = /^[.,!?;:]{0,2}["'`\u201d\u00bb]/;

/**
 * A phrase pattern and words it cannot match without (any one of them). Most tool results hold none
 * of them, and the plain look skips the pattern (docs/performance.md, "Phrase patterns compiled only when needed").
 */
interface Phrase {
  readonly needs: readonly string[];
  readonly re: RegExp;
}

const phrase = (needs: readonly string[], re: RegExp): Phrase => ({ needs, re });

const mayHave = (text: string, needs: readonly string[]): boolean => needs.some((word) => text.includes(word));

function saysUnquoted(phrase: Phrase, flat: string): boolean {
  return mayHave(flat, phrase.needs) && hasUnquoted(phrase.re, flat);
}

// A phrase in quotes is cited (a page about injections names them); one in the open is not.
function hasUnquoted(re: RegExp, flat: string): boolean {
  re.lastIndex = 0;
  for (let m = re.exec(flat); m !== null; m = re.exec(flat)) {
    const end = m.index + m[0].length;
    const cited = OPEN_QUOTES.has(flat[m.index - 1] ?? '') && CLOSE_QUOTE.test(flat.slice(end, end + 3));
    if (!cited) return true;
  }
  return false;
}

const FILLER = '(?:(?:all|any|of|the|your|my|these|those|every|everything|other) ){0,4}';
const PRIOR = '(?:previous|prior|above|earlier|preceding|former|original|initial|system|developer)';
const ORDERS = '(?:instructions?|prompts?|directions|directives?|guidelines|messages|rules|orders|programming)';

const OVERRIDE = ['ignore', 'disregard', 'forget', 'override', 'bypass', 'discard'];
const THE_USER = ['the user'];

const STEERING: readonly Phrase[] = [
  phrase(
    OVERRIDE,
    new RegExp(`\\b(?:ignore|disregard|forget|override|bypass|discard) ${FILLER}${PRIOR} ${ORDERS}\\b`, 'g'),
  ),
  phrase(['forget '], /\bforget (?:everything|all) (?:above|before|you (?:were|have been) told|that came before)/g),
  phrase(
    ['new '],
    /\b(?:your|here are your|these are your|the following are your) new (?:instructions|orders|directives|task|objective)\b/g,
  ),
  phrase(['instructions'], /\b(?:new|updated) (?:system )?instructions ?:/g),
  phrase(
    ['you are now'],
    /\byou are now (?:in )?(?:developer|god|admin|debug|jailbreak|jailbroken|unrestricted|dan|sudo) mode\b/g,
  ),
  phrase(
    ['you are now'],
    /\byou are now (?:dan\b|an? (?:unrestricted|unfiltered|jailbroken|uncensored|evil)\b|no longer (?:bound|restricted|limited|an? ai|an? assistant)\b)/g,
  ),
  phrase(
    ['from now on'],
    /\bfrom now on,? you (?:are|will|must|shall|should) (?:ignore|only|act|obey|disregard|no longer)\b/g,
  ),
  phrase(
    OVERRIDE,
    /\b(?:ignore|disregard|override|forget|bypass) (?:your |the |all )?(?:system prompt|system message|safety (?:rules|guidelines))\b/g,
  ),
  phrase(
    ['your '],
    /\b(?:reveal|print|output|repeat|leak|disclose) your (?:system prompt|hidden instructions|initial instructions)\b/g,
  ),
  phrase(THE_USER, /\b(?:do not|don't|dont|never) (?:tell|inform) the user\b/g),
  phrase(THE_USER, /\bwithout (?:telling|informing) the user\b/g),
  phrase(THE_USER, /\b(?:do not|don't|dont|never) mention (?:this|it|that|these instructions) to the user\b/g),
  phrase(THE_USER, /\b(?:hide|conceal) (?:this|it|these (?:instructions|steps|actions)) from the user\b/g),
  phrase(THE_USER, /\bkeep (?:this|it) (?:secret|hidden) from the user\b/g),
  phrase(THE_USER, /\bthe user (?:must not|should not|shouldn't|mustn't) (?:know|find out|be told)\b/g),
  phrase(
    ['before '],
    /\bbefore (?:doing|you do) anything else,? (?:you must |please |first )?(?:run|execute|call|fetch|send|curl|download|read)\b/g,
  ),
  phrase(
    ['before '],
    /\bbefore (?:responding|answering|replying)(?: to (?:the user|this|the request))?,? (?:you must |please |first |always )?(?:run|execute|call|fetch|send|curl|download)\b/g,
  ),
];

const AI =
  '(?:ai|a\\.i\\.|llm|llms|language models?|large language models?|ai (?:assistants?|agents?|models?)|coding agents?|assistants?)';

const ADDRESSED: readonly Phrase[] = [
  // a greeting to the AI needs no punctuation after it
  phrase(['dear ', 'attention ', 'hey '], new RegExp(`\\b(?:dear|attention|hey) (?:the |all |any )?${AI}\\b`, 'g')),
  // a note for the agent does, so prose about agents does not count
  phrase(
    ['note ', 'message ', 'memo ', 'instructions for', 'important for', 'this is for'],
    new RegExp(
      `\\b(?:note to|note for|message to|message for|memo to|instructions for|important for|this is for) (?:the |all |any |you,? )?(?:${AI}|agents?|bots?|models?)(?: reading this| processing this)? ?[:,!]`,
      'g',
    ),
  ),
  phrase(
    ['if you are a'],
    /\bif you are an? (?:ai|a\.i\.|llm|large language model|language model|ai assistant|ai agent|ai model|automated agent|autonomous agent|coding agent|assistant)\b/g,
  ),
  phrase(["if you're a"], /\bif you're an? (?:ai|llm|language model|ai assistant|ai agent|coding agent)\b/g),
  phrase(
    [' this'],
    /\b(?:ai|llm) (?:agents?|assistants?|models?) (?:reading|processing|parsing|summari[sz]ing) this\b/g,
  ),
];
