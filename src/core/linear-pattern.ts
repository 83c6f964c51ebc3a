// The one regular-expression engine that reads a stranger's text: every payment-message pattern
// (the built-in table of payment-formats.ts, the operator's rules of core/rules, the wording that
// names a refusal) runs on re2js, a pure-JS RE2. RE2 matches in time linear in the text (an
// automaton, no backtracking), so a pattern's cost is its compiled size times the text's length,
// and both are capped: the text by the matcher (report-rules.ts), the size here. JavaScript's own
// RegExp backtracks: ten `\d{0,9}` in a row took seconds on 41 characters (issue 27, item 8).
//
// Patterns are written in the JavaScript syntax the table always used; RE2JS.translateRegExp turns
// `(?<name>` into `(?P<name>` and `\u6536` into `\x{6536}`. What RE2 cannot run in linear time
// (look-arounds, back-references) does not compile, and says so.
//
// re2js is loaded, and the table's patterns compiled, on first use: parsing the library and
// compiling the table cost every command ~0.3 s at start, and most commands match no message.
import type { RE2JS as RE2JSClass } from "re2js";

let engine: typeof RE2JSClass | null = null;
function re2(): typeof RE2JSClass {
  // A require the bundler sees (the compiled executable carries the module) and runs when called.
  engine ??= (require("re2js") as typeof import("re2js")).RE2JS;
  return engine;
}

/**
 * Past this many automaton instructions a pattern is refused: about three times the largest
 * built-in row (111). The cost of one run is instructions x characters; at 300 on a 256-character
 * text it stays within tens of milliseconds even before the automaton is warm (`.{0,1000}` alone
 * is 2,002 instructions and took 190 ms).
 */
export const MAX_INSTRUCTIONS = 300;

export class PatternError extends Error {}

type Compiled = ReturnType<typeof RE2JSClass.compile>;

function instructions(p: Compiled): number {
  // re2js keeps its program on the RE2 object; a release that moves it fails the engine's test.
  const prog = (p.re2() as unknown as { prog?: { numInst(): number } }).prog;
  if (!prog) throw new PatternError("re2js no longer exposes its program size");
  return prog.numInst();
}

function compile(re2Source: string): Compiled {
  try {
    return re2().compile(re2Source);
  } catch (e) {
    throw new PatternError((e instanceof Error ? e.message : String(e)).replace(/^error parsing regexp: /, ""));
  }
}

interface Engine {
  whole: Compiled;
  inside: Compiled;
  hasAmount: boolean;
}

export class LinearPattern {
  private compiled: Engine | null = null;

  private constructor(readonly source: string, private readonly maxInstructions: number) {}

  private get engine(): Engine {
    if (this.compiled) return this.compiled;
    const src = re2().translateRegExp(this.source);
    const inside = compile(src); // first: a syntax error quotes the pattern as written, not wrapped
    const whole = compile(`^(?:${src})$`);
    const size = instructions(whole);
    if (size > this.maxInstructions) throw new PatternError(`too large once compiled (${size} steps, at most ${this.maxInstructions}): use smaller repetition counts`);
    const hasAmount = Object.hasOwn((whole.re2() as unknown as { namedGroups: Record<string, number> }).namedGroups, "amount");
    this.compiled = { whole, inside, hasAmount };
    return this.compiled;
  }

  /** Compiles now, or throws PatternError with RE2's reason (unsupported syntax, too large): for a pattern someone typed. */
  static compile(source: string, maxInstructions = MAX_INSTRUCTIONS): LinearPattern {
    const key = `${maxInstructions}\n${source}`;
    let p = cache.get(key);
    if (!p) {
      p = new LinearPattern(source, maxInstructions);
      void p.engine;
      if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
      cache.set(key, p);
    }
    return p;
  }

  /** Compiled on first use: the project's own table, whose patterns its tests compile. */
  static of(source: string): LinearPattern {
    return new LinearPattern(source, MAX_INSTRUCTIONS);
  }

  /** Whether the pattern names the group `amount`. */
  get hasAmount(): boolean {
    return this.engine.hasAmount;
  }

  /** The named groups when the pattern matches the WHOLE input; null when it does not. */
  wholeGroups(input: string): Record<string, string | undefined> | null {
    const { whole } = this.engine;
    if (!whole.testExact(input)) return null; // the automaton alone; groups only on a match
    const m = whole.exec(input);
    return m ? { ...(m as unknown as { groups?: Record<string, string | undefined> }).groups } : null;
  }

  matchesWhole(input: string): boolean {
    return this.engine.whole.testExact(input);
  }

  /** Whether it matches anywhere in the input. */
  test(input: string): boolean {
    return this.engine.inside.test(input);
  }

  /** The first (leftmost) match anywhere in the input, or null. */
  find(input: string): string | null {
    const { inside } = this.engine;
    if (!inside.test(input)) return null;
    const m = inside.exec(input);
    return m ? String(m[0]) : null;
  }
}

// Operator rules are compiled again whenever the one-second rules cache refreshes: by source.
const CACHE_MAX = 512;
const cache = new Map<string, LinearPattern>();

/** The pattern's problem in one line, or null when it compiles on the engine within the size. */
export function linearProblem(source: string, maxInstructions = MAX_INSTRUCTIONS): string | null {
  try {
    LinearPattern.compile(source, maxInstructions);
    return null;
  } catch (e) {
    if (e instanceof PatternError) return e.message;
    throw e;
  }
}
