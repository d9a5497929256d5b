// Stand-in for JUnit 5's @Test: the recipe's test methods are called by the driver.
package org.junit.jupiter.api;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

@Retention(RetentionPolicy.RUNTIME)
public @interface Test {}
