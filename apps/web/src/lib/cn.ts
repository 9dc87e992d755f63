import { clsx, type ClassValue } from 'clsx';
import { extendTailwindMerge } from 'tailwind-merge';

// Later classes win over earlier conflicting ones (e.g. a caller's `rounded-none` over `rounded-xl`).
const twMerge = extendTailwindMerge({});
export const cn = (...inputs: ClassValue[]) => twMerge(clsx(inputs));
