/** How a person is named in lists and mails: first and last name, else the username. */
export function personName(user: { firstName: string; lastName: string; username: string }): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username;
}
