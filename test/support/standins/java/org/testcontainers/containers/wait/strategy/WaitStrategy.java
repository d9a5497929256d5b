// Stand-in for Testcontainers' WaitStrategy.
package org.testcontainers.containers.wait.strategy;

public interface WaitStrategy {}
