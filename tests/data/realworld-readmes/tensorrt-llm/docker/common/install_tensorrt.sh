#!/bin/bash
set -ex
