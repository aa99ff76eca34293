import { InvitePreviewScreen } from '../components/invite-preview';

/** An invite link or a personal link: the same preview with Accept and Decline. */
export default InvitePreviewScreen;
