/** The 400 answer for a request whose path does not decode, or null when it decodes. */
export function malformedPathAnswer(
  url: string | undefined,
): { status: number; headers: Record<string, string>; body: string } | null;
