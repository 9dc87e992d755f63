import Link from 'next/link';

export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-b from-brand-50 to-slate-50 px-4 py-12">
      <Link href="/" className="mb-8 flex items-center gap-2 text-xl font-semibold tracking-tight">
        <span className="grid size-8 place-items-center rounded-md bg-brand-600 text-sm font-bold text-white">
          PB
        </span>
        <span>
          <span className="text-brand-600">Pool</span>Bench
        </span>
      </Link>
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-lg shadow-slate-200/60">
        {children}
      </div>
    </div>
  );
}
