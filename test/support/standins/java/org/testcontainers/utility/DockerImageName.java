// Stand-in for Testcontainers' DockerImageName.
package org.testcontainers.utility;

public final class DockerImageName {
  private final String name;

  private DockerImageName(String name) {
    this.name = name;
  }

  public static DockerImageName parse(String name) {
    return new DockerImageName(name);
  }

  public String asCanonicalNameString() {
    return name;
  }
}
