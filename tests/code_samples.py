"""Small hand-written programs in every language the scanner knows: each has the
traps a naive splitter falls into (braces in strings, comments that look like
code, heredocs, template strings, lifetimes) and the definitions it must find."""

SAMPLES = {
    "javascript": '''// utils
import x from "y";

/** Adds. */
export function add(a, b) {
  const s = `sum ${a + `${b}`} }`;
  return a + b;
}

class Foo extends Bar {
  @dec
  method(x) {
    if (x) {
      return 1;
    }
  }
  get y() { return 2 }
}
const f = async (a) => {
  return a;
};
''',
    "typescript": '''interface Shape {
  area(): number;
}

export class Circle implements Shape {
  constructor(private r: number) {}

  area(): number {
    return Math.PI * this.r ** 2; // "}"
  }
}
''',
    "rust": '''use std::io;

/// Docs
#[derive(Debug)]
pub struct S<'a> {
    x: &'a str,
}

impl<'a> S<'a> {
    pub fn new(x: &'a str) -> Self {
        let r = r#"raw "quoted" }"#;
        let c = '}';
        S { x }
    }
}
/* nested /* comment */ } */
fn main() {}
''',
    "go": '''package main

import (
	"fmt"
)

// Server serves.
type Server struct {
	addr string
}

func (s *Server) Serve(l net.Listener) error {
	x := `raw
}`
	return nil
}
''',
    "shell": '''#!/bin/bash
# comment
set -e

usage() {
  cat <<END
Usage: } {
END
  echo "$#"
}

function main {
  case "$1" in
    a) echo a ;;
  esac
}
''',
    "ruby": '''# A thing
class Foo
  # doc
  def bar(x)
    s = <<~EOS
      def not_a_def
    EOS
    x
  end

  def baz; end
end
''',
    "yaml": '''# config
name: CI
on:
  push:
    branches: [main]
jobs:
  build:
    runs-on: ubuntu
    steps:
    - uses: actions/checkout@v4
    - name: Test
      run: |
        echo hi
''',
    "toml": '''[project]
name = "x"
# c
[tool.ruff]
line-length = 100
''',
    "sql": '''-- users
CREATE TABLE users (
  id int
);

CREATE FUNCTION f() RETURNS int AS $$
BEGIN; RETURN 1; END;
$$ LANGUAGE plpgsql;
SELECT 'a;b' FROM t;
''',
    "html": '''<!doctype html>
<html>
<body>
  <section id="intro">
    <p>Don't</p>
  </section>
  <div>
    <br>
  </div>
</body>
</html>
''',
    "xml": '''<?xml version="1.0"?>
<project>
  <!-- deps -->
  <dependencies>
    <dependency>x</dependency>
  </dependencies>
</project>
''',
    "css": '''/* c */
.a,
.b {
  color: red;
}
@media (x) {
  .c { d: e }
  .d {
    x: y;
  }
}
''',
    "json": '''{
  "name": "x",
  "scripts": {
    "a": "b"
  },
  "deps": [
    1
  ]
}
''',
    "java": '''package a;

/** Doc. */
@Annot
public class A {
  private int x;

  @Override
  public String toString() {
    return "}";
  }

  void m()
  {
    if (x) { }
  }
}
''',
    "c": '''#include <stdio.h>

/* the entry */
static int add(int a, int b) {
  return a + b; /* } */
}

struct point {
  int x;
};
''',
    "cpp": '''#include <x>
namespace ns {
template <typename T>
class C {
 public:
  int f(int a) const {
    auto s = R"x(raw ")" )x";
    return a;
  }
};
}  // namespace ns
int main(int argc, char** argv) {
  return 0;
}
''',
    "csharp": '''using System;
namespace N
{
    [Serializable]
    public class C
    {
        public void M()
        {
            var s = @"a""}";
        }
    }
}
''',
    "kotlin": '''package p
/** d */
data class P(
  val a: Int
) : B {
  fun f(): Int {
    return """}"""
  }
}
''',
    "swift": '''import UIKit
@main
struct App {
  func f() -> Int {
    return 1
  }
}
''',
    "php": '''<?php
namespace App;
#[Attr]
class A {
    public function f() {
        $s = <<<EOT
        }
        EOT;
        # comment
    }
}
''',
    "python": '''import os

# comment
@dec
def f(x):
    """doc
    def g(): }"""
    return x

class A:
    def m(self):
        pass
''',
}
