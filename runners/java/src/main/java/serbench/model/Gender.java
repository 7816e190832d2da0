package serbench.model;

/** S1 gender; the canonical form is the ordinal. */
public enum Gender {
  Female,
  Male
}
