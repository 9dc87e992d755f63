import type { Metadata } from 'next';
import { connection } from 'next/server';
import './globals.css';
import { Providers } from './providers';

export const metadata: Metadata = {
  title: { default: 'PoolBench', template: '%s · PoolBench' },
  description: 'Schedule, repeat and compare connection-pool benchmarks with honest statistics.',
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request: the CSP nonce (src/proxy.ts) exists only at request time,
  // and a page prerendered at build time would carry scripts without it, which the CSP blocks.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
