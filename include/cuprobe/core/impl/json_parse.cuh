// cuprobe/core/impl/json_parse.cuh: the definitions of cuprobe/core/json_parse.cuh's larger host
// functions. Not a header of its own: json_parse.cuh includes it at its end in the header-only
// mode, and cuprobe/implementation.cuh after every header in the separate compilation
// (core/linkage.cuh).
#pragma once

namespace cuprobe::detail {

CUPROBE_DECL json json_reader::document() {
  json v = value(0);
  space();
  if (i_ != t_.size()) fail("text after the value");
  return v;
}

CUPROBE_DECL void json_reader::fail(const std::string& why) const {
  throw error("json: at byte " + std::to_string(i_) + ": " + why);
}

CUPROBE_DECL void json_reader::space() {
  while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r'))
    ++i_;
}

CUPROBE_DECL bool json_reader::take(char c) {
  space();
  if (i_ < t_.size() && t_[i_] == c) {
    ++i_;
    return true;
  }
  return false;
}

CUPROBE_DECL bool json_reader::word(const char* w) {
  const std::string s(w);
  if (t_.compare(i_, s.size(), s) != 0) return false;
  i_ += s.size();
  return true;
}

CUPROBE_DECL json json_reader::value(int depth) {
  if (depth > 256) fail("nested deeper than 256 levels");
  space();
  if (i_ >= t_.size()) fail("the text ends where a value should be");
  const char c = t_[i_];
  if (c == '{') return object(depth);
  if (c == '[') return array(depth);
  if (c == '"') return json(string());
  if (word("true")) return json(true);
  if (word("false")) return json(false);
  if (word("null")) return json();
  if (c == '-' || (c >= '0' && c <= '9')) return number();
  fail(std::string("unexpected character '") + c + "'");
}

CUPROBE_DECL json json_reader::object(int depth) {
  ++i_;  // '{'
  json o = json::object();
  if (take('}')) return o;
  do {
    space();
    if (i_ >= t_.size() || t_[i_] != '"') fail("expected a member name (a string)");
    const std::string key = string();
    expect(':', "':' after a member name");
    o[key] = value(depth + 1);
  } while (take(','));
  expect('}', "',' or '}' in an object");
  return o;
}

CUPROBE_DECL json json_reader::array(int depth) {
  ++i_;  // '['
  json a = json::array();
  if (take(']')) return a;
  do a.push_back(value(depth + 1));
  while (take(','));
  expect(']', "',' or ']' in an array");
  return a;
}

CUPROBE_DECL unsigned json_reader::hex4() {
  if (i_ + 4 > t_.size()) fail("a \\u escape needs four hex digits");
  unsigned v = 0;
  for (int k = 0; k < 4; ++k) {
    const char h = t_[i_++];
    v <<= 4;
    if (h >= '0' && h <= '9')
      v |= unsigned(h - '0');
    else if (h >= 'a' && h <= 'f')
      v |= unsigned(h - 'a' + 10);
    else if (h >= 'A' && h <= 'F')
      v |= unsigned(h - 'A' + 10);
    else
      fail("a \\u escape needs four hex digits");
  }
  return v;
}

CUPROBE_DECL void json_reader::utf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

CUPROBE_DECL std::string json_reader::string() {
  ++i_;  // '"'
  std::string s;
  for (;;) {
    if (i_ >= t_.size()) fail("a string is not closed");
    const char c = t_[i_++];
    if (c == '"') return s;
    if (static_cast<unsigned char>(c) < 0x20) fail("a control character inside a string");
    if (c != '\\') {
      s += c;
      continue;
    }
    if (i_ >= t_.size()) fail("a string is not closed");
    const char e = t_[i_++];
    switch (e) {
      case '"':
        s += '"';
        break;
      case '\\':
        s += '\\';
        break;
      case '/':
        s += '/';
        break;
      case 'b':
        s += '\b';
        break;
      case 'f':
        s += '\f';
        break;
      case 'n':
        s += '\n';
        break;
      case 'r':
        s += '\r';
        break;
      case 't':
        s += '\t';
        break;
      case 'u': {
        unsigned cp = hex4();
        if (cp >= 0xD800 && cp < 0xDC00 && t_.compare(i_, 2, "\\u") == 0) {
          i_ += 2;
          const unsigned lo = hex4();
          if (lo < 0xDC00 || lo > 0xDFFF) fail("a high surrogate without its low surrogate");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
        utf8(s, cp);
        break;
      }
      default:
        fail(std::string("an unknown escape '\\") + e + "'");
    }
  }
}

CUPROBE_DECL json json_reader::number() {
  const std::size_t start = i_;
  if (t_[i_] == '-') ++i_;
  const auto digits = [&] {
    const std::size_t d = i_;
    while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') ++i_;
    return i_ > d;
  };
  if (!digits()) fail("a number needs digits");
  bool integral = true;
  if (i_ < t_.size() && t_[i_] == '.') {
    ++i_;
    integral = false;
    if (!digits()) fail("a number needs digits after '.'");
  }
  if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
    ++i_;
    integral = false;
    if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) ++i_;
    if (!digits()) fail("a number needs digits in its exponent");
  }
  const std::string text = t_.substr(start, i_ - start);
  errno = 0;
  if (integral) {
    const long long v = std::strtoll(text.c_str(), nullptr, 10);
    if (errno == 0) return json(v);
    errno = 0;
  }
  return json(std::strtod(text.c_str(), nullptr));
}

}  // namespace cuprobe::detail
