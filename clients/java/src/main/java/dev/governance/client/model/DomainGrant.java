package dev.governance.client.model;

/**
 * A role ({@code viewer}, {@code editor}, {@code admin}; see {@link Role}) inside a domain for
 * the members of a team. {@code role} is the wire string, so roles added later still read.
 */
public record DomainGrant(String team, String role) {

  public static DomainGrant of(String team, Role role) {
    return new DomainGrant(team, role.wireName());
  }
}
