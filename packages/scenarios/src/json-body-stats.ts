/** Serialized size (UTF-8 bytes) and number of JSON values (containers and leaves) of a JSON body. */
export function jsonBodyStats(value: unknown): { bytes: number; values: number } {
  const bytes = new TextEncoder().encode(JSON.stringify(value) ?? 'null').length;
  let values = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    values++;
    // a loop, not push(...v): spreading a 500 000-element array would overflow the call stack
    if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) stack.push(x);
  }
  return { bytes, values };
}
