// Stand-in for Testcontainers' @Container: the driver starts the field's container, as the extension does.
package org.testcontainers.junit.jupiter;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

@Retention(RetentionPolicy.RUNTIME)
public @interface Container {}
