// Time is injected so tests can move it (expiry, match windows, retry schedules).
export interface Clock {
  /** Unix seconds. */
  now(): number;
  /** Unix milliseconds. */
  nowMs(): number;
}

export const systemClock: Clock = {
  now: () => Math.floor(Date.now() / 1000),
  nowMs: () => Date.now(),
};

/** A clock that tests can move forward. */
export class ManualClock implements Clock {
  constructor(private ms = Date.now()) {}
  now(): number {
    return Math.floor(this.ms / 1000);
  }
  nowMs(): number {
    return this.ms;
  }
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}
