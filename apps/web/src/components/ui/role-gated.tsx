'use client';

import { useId } from 'react';
import type { Role } from '@poolbench/db';
import { useRole } from '~/lib/hooks/use-role';
import { ButtonLink, buttonClass, type ButtonVariant } from './button';

const WHO: Record<Role, string> = {
  viewer: 'Viewers',
  member: 'Members',
  admin: 'Admins',
  owner: 'Owners',
};

/** Why a role below `min` cannot use an action, e.g. "Viewers cannot start runs." */
export function roleReason(min: Role, role: Role | null, what: string) {
  const who = role ? WHO[role] : 'You';
  return `${who} cannot ${what}: it needs the ${min} role. Ask an admin of this team.`;
}

/**
 * An action the caller's role may not use: shown, but disabled, with the reason on hover (title)
 * and for assistive technology (aria-describedby). `aria-disabled` instead of `disabled` keeps it
 * focusable, so keyboard users meet the reason too. Renders `children` once the role suffices.
 */
export function RoleGated({
  min,
  what,
  label,
  variant = 'primary',
  size = 'md',
  children,
}: {
  min: Role;
  /** the verb phrase the reason names, e.g. "start runs" */
  what: string;
  /** what the disabled button shows: the same label as the action */
  label: React.ReactNode;
  variant?: ButtonVariant;
  size?: 'sm' | 'md' | 'lg';
  children: React.ReactNode;
}) {
  const { can, role, loading } = useRole();
  const id = useId();
  if (loading) return null;
  if (can(min)) return <>{children}</>;
  const reason = roleReason(min, role, what);
  return (
    <span className="inline-flex">
      <button
        type="button"
        aria-disabled="true"
        aria-describedby={id}
        title={reason}
        data-role-gated=""
        onClick={(e) => e.preventDefault()}
        className={buttonClass(variant, size, 'cursor-not-allowed opacity-60')}
      >
        {label}
      </button>
      <span id={id} className="sr-only">
        {reason}
      </span>
    </span>
  );
}

/**
 * A link styled as a button, for roles from `min` up; below it, the same label disabled with the
 * reason (RoleGated). `icon` stands before the label in both.
 */
export function GatedButtonLink({
  min,
  what,
  href,
  icon: Icon,
  size = 'md',
  variant = 'primary',
  children,
}: {
  min: Role;
  what: string;
  href: string;
  icon?: React.ComponentType<{ className?: string }>;
  size?: 'sm' | 'md' | 'lg';
  variant?: ButtonVariant;
  children: React.ReactNode;
}) {
  const label = (
    <>
      {Icon ? <Icon className="size-4" /> : null}
      {children}
    </>
  );
  return (
    <RoleGated min={min} what={what} label={label} size={size} variant={variant}>
      <ButtonLink href={href} size={size} variant={variant}>
        {label}
      </ButtonLink>
    </RoleGated>
  );
}
