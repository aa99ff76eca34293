/** What the rest of the app may use of the onboarding feature. */
export { QuickstartBanner } from './components/quickstart-banner';
