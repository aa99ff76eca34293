// Sets the colour scheme before the first paint, so a dark theme never flashes white. It is a file,
// not inline, because the Content-Security-Policy allows scripts only from this origin.
// On the prerendered landing page (html[data-prerendered="<language>"]) it also hides the markup
// when the app will show another language (the stored choice, else the browser's), until the app
// renders over it: no flash of the wrong language.
(function () {
  var root = document.documentElement;
  var scheme = 'light';
  var language = null;
  try {
    var stored = window.localStorage.getItem('theme');
    if (stored === 'light' || stored === 'dark') scheme = stored;
    else if (window.matchMedia('(prefers-color-scheme: dark)').matches) scheme = 'dark';
    language = window.localStorage.getItem('language');
  } catch (e) {
    // Storage unavailable: follow the light default.
  }
  root.setAttribute('data-mantine-color-scheme', scheme);
  var prerendered = root.getAttribute('data-prerendered');
  if (!prerendered) return;
  // As the app decides: the stored choice, else the browser's first language; unsupported means en.
  var tag = language || (navigator.languages && navigator.languages[0]) || navigator.language || '';
  var base = String(tag).trim().toLowerCase().split(/[-_]/)[0];
  var wanted = base === 'ru' ? 'ru' : 'en';
  if (wanted !== prerendered) root.setAttribute('data-landing-stale', '');
})();
