/** The parameter message of a coordinate out of range or not a number (errors.md, suggested wording). */
export const GEO_MESSAGE = 'Must be a number between -90 and 90 (latitude) or -180 and 180 (longitude).';
