/** The command palette and the keyboard shortcuts of the signed-in area (issue 20). */
export { CommandPalette, openPalette } from './components/command-palette';
export { KeyboardLayer } from './components/keyboard-layer';
