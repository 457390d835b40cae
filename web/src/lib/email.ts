// What the app takes for an e-mail address before the server's own check
// (portal.ValidEmail): something@something.something, without spaces. One
// pattern for every form that asks for an address.
export const EMAIL_PATTERN = '[^\\s@]+@[^\\s@]+\\.[^\\s@]+';

/** EMAIL_PATTERN for a whole value. */
export const EMAIL_ADDRESS = new RegExp(`^${EMAIL_PATTERN}$`);
