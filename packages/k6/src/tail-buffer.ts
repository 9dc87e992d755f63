/** Keeps the last `max` lines of a stream, so a chatty k6 cannot grow memory. */
export class TailBuffer {
  private readonly kept: string[] = [];
  private partial = '';

  constructor(private readonly max: number) {}

  push(chunk: Buffer | string): void {
    const parts = (this.partial + chunk.toString()).split('\n');
    this.partial = parts.pop() ?? '';
    if (this.partial.length > 4096) this.partial = this.partial.slice(-4096);
    for (const p of parts) {
      if (p.trim() === '') continue;
      this.kept.push(p.length > 2000 ? `${p.slice(0, 2000)}…` : p);
      if (this.kept.length > this.max) this.kept.shift();
    }
  }

  lines(): string[] {
    const out = [...this.kept];
    if (this.partial.trim() !== '') out.push(this.partial);
    return out.slice(-this.max);
  }
}
