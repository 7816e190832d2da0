namespace * serbench.user.scores

struct Root {
  1: required list<double> value
}
