terraform {
  # `terraform test` needs 1.6; the tests' `expect_failures` on check blocks
  # and output preconditions work from there on.
  required_version = ">= 1.6.0"

  required_providers {
    hpcsku = {
      source = "hpcsku/hpcsku"
    }
  }
}
