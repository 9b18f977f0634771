package dev.zklock.autoconfigure;

/**
 * The participant id of this instance, computed once by the auto-configuration and given both to
 * the lock template (its lock nodes name it) and to the elections.
 *
 * @param id the participant id
 */
record InstanceParticipant(String id) {

}
