/**
 * What a person typed into the prerendered login form (the server's `/login` page paints it before
 * the app's script runs) before the app took over: the app's form starts from it, so nothing typed
 * is lost and the caret stays in the field it was in (docs/decisions.md, entry 102).
 */
export type TPrerenderedLogin = {
  username: string;
  password: string;
  focused: 'username' | 'password' | null;
};

const fields = ['username', 'password'] as const;

let typed: TPrerenderedLogin | null = null;
let watching: AbortController | null = null;

/**
 * Starts following the prerendered login form, if the page has one: its values and which field has
 * the focus, kept up to date until the app's form replaces it. Called by main.tsx before it waits
 * for anything, so every keystroke from then on is seen.
 */
export function watchPrerenderedLogin(root: ParentNode = document): void {
  const form = root.querySelector<HTMLFormElement>('[data-login-prerendered] form');
  if (!form) return;
  const input = (name: (typeof fields)[number]) =>
    form.querySelector<HTMLInputElement>(`input[data-testid="login-${name}"]`);
  const read = () => {
    // React removes the form when it renders: whatever fires then (a blur) is not typing.
    if (!form.isConnected) return;
    const active = document.activeElement;
    typed = {
      username: input('username')?.value ?? '',
      password: input('password')?.value ?? '',
      focused: fields.find((name) => input(name) !== null && input(name) === active) ?? null,
    };
  };
  read();
  watching = new AbortController();
  const { signal } = watching;
  form.addEventListener('input', read, { signal });
  form.addEventListener('focusin', read, { signal });
  // While focus moves between the fields, the document's active element is briefly the body.
  form.addEventListener('focusout', () => setTimeout(read), { signal });
}

/** The prerendered form's last state, once (a later visit to /login starts empty); null without one. */
export function takePrerenderedLogin(): TPrerenderedLogin | null {
  const last = typed;
  typed = null;
  watching?.abort();
  watching = null;
  return last;
}
