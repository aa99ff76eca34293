/** What other features use of mail: the mailer, the templates, the dev outbox routes. */
export { createMailer, type Mailer, type OutgoingMail } from './mailer';
export {
  renderBlocks,
  renderMail,
  type Block,
  type CodeMailPurpose,
  type MailContent,
  type MailTemplate,
} from './templates';
export { devOutboxRoutes } from './routes';
