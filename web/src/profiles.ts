// The tournament formats and the rule profiles an organiser chooses from.
export const FORMATS = ["single_elimination", "double_elimination", "swiss", "round_robin", "lives"] as const;
export const PROFILES = ["platform", "hbf", "cnb"] as const;

