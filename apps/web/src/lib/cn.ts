import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

// Later classes win over earlier conflicting ones (e.g. a caller's `rounded-none` over `rounded-xl`).
export const cn = (...inputs: ClassValue[]) => twMerge(clsx(inputs));
