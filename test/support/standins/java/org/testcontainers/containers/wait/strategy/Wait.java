// Stand-in for Testcontainers' Wait.
package org.testcontainers.containers.wait.strategy;

public final class Wait {
  private Wait() {}

  public static HttpWaitStrategy forHttp(String path) {
    return new HttpWaitStrategy(path);
  }
}
