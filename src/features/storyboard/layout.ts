/** Fixed sizes keep the virtual grid cheap: no measuring of cards while scrolling. */
export const CARD_HEIGHT = 232;
/** The strip under each card with its add and merge-next buttons. */
export const JOINT_HEIGHT = 48;
export const ROW_HEIGHT = CARD_HEIGHT + JOINT_HEIGHT;
