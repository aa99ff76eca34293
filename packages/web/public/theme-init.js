// Sets the colour scheme before the first paint, so a dark theme never flashes white. It is a file,
// not inline, because the Content-Security-Policy allows scripts only from this origin.
(function () {
  var scheme = 'light';
  try {
    var stored = window.localStorage.getItem('theme');
    if (stored === 'light' || stored === 'dark') scheme = stored;
    else if (window.matchMedia('(prefers-color-scheme: dark)').matches) scheme = 'dark';
  } catch (e) {
    // Storage unavailable: follow the light default.
  }
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
})();
