// Stand-in for Testcontainers' HttpWaitStrategy: the path, port and status the recipe waits for.
package org.testcontainers.containers.wait.strategy;

public class HttpWaitStrategy implements WaitStrategy {
  public final String path;
  public int port = -1;
  public int status = 200;

  HttpWaitStrategy(String path) {
    this.path = path;
  }

  public HttpWaitStrategy forPort(int port) {
    this.port = port;
    return this;
  }

  public HttpWaitStrategy forStatusCode(int status) {
    this.status = status;
    return this;
  }
}
