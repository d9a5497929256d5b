// Stand-in for Testcontainers' GenericContainer where no Docker engine runs: start() runs the image's
// command (the STANDIN_COMMAND environment variable, arguments separated by newlines) on a free port
// standing for the mapped one, and waits as the recipe's wait strategy says. STANDIN_IMAGE and
// STANDIN_IMAGE_PORT are the image it stands for and the port that image listens on.
package org.testcontainers.containers;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.testcontainers.containers.wait.strategy.HttpWaitStrategy;
import org.testcontainers.containers.wait.strategy.WaitStrategy;
import org.testcontainers.utility.DockerImageName;

public class GenericContainer<SELF extends GenericContainer<SELF>> {
  private final String image;
  private final List<Integer> exposed = new ArrayList<>();
  private HttpWaitStrategy wait;
  private Process process;
  private int port;

  public GenericContainer(DockerImageName image) {
    this.image = image.asCanonicalNameString();
    if (!this.image.equals(System.getenv("STANDIN_IMAGE"))) {
      throw new IllegalArgumentException("asked for " + this.image + ", stands for " + System.getenv("STANDIN_IMAGE"));
    }
  }

  @SuppressWarnings("unchecked")
  public SELF withExposedPorts(Integer... ports) {
    exposed.addAll(Arrays.asList(ports));
    return (SELF) this;
  }

  @SuppressWarnings("unchecked")
  public SELF waitingFor(WaitStrategy strategy) {
    wait = (HttpWaitStrategy) strategy;
    return (SELF) this;
  }

  public void start() throws IOException, InterruptedException {
    int imagePort = Integer.parseInt(System.getenv("STANDIN_IMAGE_PORT"));
    if (!exposed.contains(imagePort) || wait.port != imagePort) {
      throw new IllegalStateException("the image listens on " + imagePort + "; exposed " + exposed + ", waited for on " + wait.port);
    }
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    ProcessBuilder pb = new ProcessBuilder(System.getenv("STANDIN_COMMAND").split("\n"));
    pb.environment().put("HOST", "127.0.0.1");
    pb.environment().put("PORT", String.valueOf(port));
    pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    process = pb.start();
    long deadline = System.currentTimeMillis() + 30_000;
    while (true) {
      try {
        HttpURLConnection c = (HttpURLConnection) new URL("http://127.0.0.1:" + port + wait.path).openConnection();
        if (c.getResponseCode() == wait.status) return;
      } catch (IOException e) {
        // Not listening yet.
      }
      if (System.currentTimeMillis() > deadline) throw new IllegalStateException("no " + wait.status + " from " + wait.path);
      Thread.sleep(100);
    }
  }

  public void stop() throws InterruptedException {
    if (process != null) {
      process.destroy();
      process.waitFor();
    }
  }

  public String getHost() {
    return "127.0.0.1";
  }

  public Integer getMappedPort(int containerPort) {
    if (!exposed.contains(containerPort)) throw new IllegalArgumentException("port " + containerPort + " is not exposed");
    return port;
  }
}
