// Types the scenario language's files share, apart from the code, so they import each other one way.

export interface ScenarioIssue {
  /** Where in the document, e.g. payout.outcomes[0].status; '' for the whole document. */
  path: string;
  message: string;
}
