/** The frame rate frame numbers are counted at (docs/review-sessions.md, decision 249). */
export const FrameRate = 24;
