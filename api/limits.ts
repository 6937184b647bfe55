/** Field limits of SPEC §5 and §9, shared by the forms and the server. */
export const PASSWORD_MIN = 8;
export const EMAIL_MAX = 255;
export const PASSWORD_MAX = 255;
export const NAME_MAX = 127;
export const PROJECT_NAME_MAX = 140;
export const SCENE_LINE_MAX = 35;
