/** The signed-in user a request acts for, as the session cache and every procedure see it. */
export interface SessionUser {
  id: string;
  name: string;
  email: string;
  /** the address was verified through the link mailed at sign-up */
  emailVerified?: boolean;
}
