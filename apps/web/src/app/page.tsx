import Link from 'next/link';
import { redirect } from 'next/navigation';
import { getSession } from '~/server/session';

const FEATURES = [
  {
    title: 'Pool configs you can actually apply',
    body: 'PoolBench starts the target itself with each strategy — lazy, prewarmed, elastic, adaptive, partitioned — so a cold start is a real cold start.',
  },
  {
    title: 'Exact numbers from inside k6',
    body: 'Per-second HDR histograms are merged, never averaged: p99 across repeats and instances is exact, and the output costs under 5 % of throughput.',
  },
  {
    title: 'Differences you can trust',
    body: 'Repeats run interleaved; configs are compared with Mann-Whitney U and Hodges–Lehmann intervals, with a practical floor before anything is called a regression.',
  },
];

export const dynamic = 'force-dynamic';

export default async function LandingPage() {
  if (await getSession()) redirect('/runs');
  return (
    <main className="mx-auto max-w-5xl px-6 py-16">
      <header className="flex items-center justify-between">
        <span className="text-lg font-semibold tracking-tight">
          <span className="text-brand-600">Pool</span>Bench
        </span>
        <nav className="flex gap-4 text-sm">
          <Link href="/sign-in" className="rounded-md px-3 py-2 hover:bg-slate-100">
            Sign in
          </Link>
          <Link
            href="/sign-up"
            className="rounded-md bg-brand-600 px-3 py-2 font-medium text-white hover:bg-brand-700"
          >
            Get started
          </Link>
        </nav>
      </header>
      <section className="mt-20 max-w-3xl">
        <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">
          Benchmark connection pools like an experiment, not an anecdote.
        </h1>
        <p className="mt-6 text-lg text-slate-600">
          Define targets and pool configs, pick scenarios — cold-start burst, ramp-up, spike,
          sustained, fixed rate — and PoolBench runs the matrix with k6 on a worker fleet, measures
          latency, throughput, CPU, memory and the pool itself, and tells you which config is
          faster, by how much, and whether that is real.
        </p>
      </section>
      <section className="mt-16 grid gap-6 sm:grid-cols-3">
        {FEATURES.map((f) => (
          <article
            key={f.title}
            className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
          >
            <h2 className="font-semibold">{f.title}</h2>
            <p className="mt-2 text-sm text-slate-600">{f.body}</p>
          </article>
        ))}
      </section>
    </main>
  );
}
